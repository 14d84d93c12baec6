/* SPDX-License-Identifier: MIT */
/*
 * envmod.h - the environment module that envmod.dapto monitors, reduced to
 * its types, with the macros that let Environment and DefTableKey values
 * travel as pointers.
 */
#ifndef ENVMOD_H
#define ENVMOD_H

typedef struct DefTableKeyImpl *DefTableKey;
typedef struct ScopeImpl *Scope;
typedef struct EnvImpl *Environment;

struct ScopeImpl {
    int idn;
    DefTableKey key;
    Scope nxt;
};

struct EnvImpl {
    Environment parent;
    Scope relate;
};

#define NoScope ((Scope)0)

#define DAPTO_RESULTEnvironment(e) DAPTO_RESULT_PTR(e)
#define DAPTO_ARGEnvironment(e) DAPTO_ARG_PTR(e, Environment)
#define DAPTO_RESULTDefTableKey(k) DAPTO_RESULT_PTR(k)

#endif /* ENVMOD_H */
