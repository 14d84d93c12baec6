# SPDX-License-Identifier: MIT
# probes/python.tcl - hints for CPython's USDT probes (provider python,
# Include/pydtrace.d in CPython's sources): the names and kinds of their
# arguments, and the Python functions that function__entry and
# function__return enter and leave, for the profiles.  Read at start-up
# with the other files of noosa's probes/ directory, before
# ~/.noosa/probes/*.tcl (whose hints replace these).

probe hint python:function__entry filename:str funcname:str lineno:int
probe hint python:function__return filename:str funcname:str lineno:int
probe hint python:line filename:str funcname:str lineno:int
probe hint python:gc__start generation:int
probe hint python:gc__done collected:long
probe hint python:import__find__load__start modulename:str
probe hint python:import__find__load__done modulename:str found:int
probe hint python:audit event:str args:ptr
probe hint python:instance__new__start type:str
probe hint python:instance__new__done type:str
probe hint python:instance__delete__start type:str
probe hint python:instance__delete__done type:str

probe component python:function__entry enter {%{filename}:%{funcname}}
probe component python:function__return leave {%{filename}:%{funcname}}
