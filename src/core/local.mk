# SPDX-License-Identifier: MIT
# src/core: target control and the event path (src/core/README).
src_libnoosa_la_SOURCES += \
	src/core/target.c src/core/target.h src/core/target-int.h \
	src/core/target-start.c src/core/target-attach.c \
	src/core/target-break.c src/core/target-mem.c \
	src/core/target-call.c \
	src/core/channel.c src/core/channel.h src/core/channel-int.h \
	src/core/channel-wait.c src/core/channel-ring.c \
	src/core/channel-tbuf.c src/core/channel-direct.c \
	src/core/channel-keep.c src/core/channel-stop.c \
	src/core/reader.c src/core/reader.h \
	src/core/decode.c src/core/decode.h \
	src/core/registry.c src/core/registry.h \
	src/core/value.c src/core/value.h \
	src/core/clock.c src/core/clock.h \
	src/core/symbols.c src/core/symbols.h \
	src/core/symnames.c src/core/symnames.h \
	src/core/loop.c src/core/loop.h \
	src/core/session.c src/core/session.h src/core/session-int.h \
	src/core/session-procs.c src/core/session-watch.c \
	src/core/session-run.c src/core/session-attach.c \
	src/core/session-follow.c src/core/session-replay.c \
	src/core/session-probes.c \
	src/core/checkpoint.c src/core/checkpoint.h \
	src/core/dispatch.c src/core/dispatch.h \
	src/core/cond.c src/core/cond.h \
	src/core/usdt.c src/core/usdt.h \
	src/core/probes.c src/core/probes.h \
	src/core/patch.c src/core/patch.h
EXTRA_DIST += src/core/README
