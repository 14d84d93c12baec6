#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""reference.py - relations between events computed from a recording's
dump (`noosa dump DIR`), apart from noosa and the program, as
doc/design.md <design#relations> states them: each thread's component
stack from its enters and leaves (a leave pops down to the innermost
frame of its component, or is ignored), components tested at each event,
and derived events.

    reference.py DUMP SPEC...

SPEC is one of (a part is e:EVENT or c:COMPONENT):

    derive:NAME:contains:c:A:PART[:COND]   compare NAME's events in DUMP
    derive:NAME:calls:c:A:PART             (the program's) with the ones
    derive:NAME:before:PART:PART[:C]       computed here; say ok or differ
    count:Q:EVENT[:within|outside:C][:COND]
                                           print "ref Q N": EVENT's count
    sum:Q:EVENT:PARAM[:within|outside:C][:COND]
                                           print "ref Q SUM"
    by:Q:EVENT:PARAM[:within|outside:C]    print "ref Q VALUE N" a group
    list:Q:EVENT:PARAM[:within|outside:C][:COND]
                                           print "ref Q VALUE" per event
    window:Q:EVENT:FROM:TO                 print "ref Q N": EVENT counted
                                           between each FROM and the next
                                           TO (one thread)
    derivedby:Q:NAME:PARAM                 print "ref Q VALUE N", the
                                           groups of NAME's events

COND is a Python expression over the event's parameters.  The exit
status is 1 when a derived event differs, else 0.  Standard library only.
"""
import re
import sys

LINE = re.compile(r'^(\d+) (-?\d+) thread=(-?\d+) (\S+)(.*)$')
PARAM = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def value(text):
    if text.startswith('"'):
        return bytes(text[1:-1], 'utf-8').decode('unicode_escape')
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def read(path):
    """The dump's events: (seq, ns, tid, name, params), in its order."""
    out = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = LINE.match(line.rstrip('\n'))
            if not m:
                continue
            params = {k: value(v) for k, v in PARAM.findall(m.group(5))}
            out.append((int(m.group(1)), int(m.group(2)), int(m.group(3)),
                        m.group(4), params))
    return out


class Part:
    def __init__(self, text):
        kind, _, name = text.partition(':')
        if kind not in ('e', 'c') or not name:
            raise SystemExit('bad part %r: e:EVENT or c:COMPONENT' % text)
        self.event = kind == 'e'
        self.name = name


class Derived:
    def __init__(self, name, kind, a, b, c=None, cond=None):
        self.name = name
        self.kind = kind
        self.a = a
        self.b = b
        self.c = c
        self.cond = cond
        self.out = {}        # tid -> [(time, values...)]
        self.nb = {}         # tid -> B's so far (contains)
        self.last = {}       # tid -> the last A (before, no C)

    def emit(self, tid, ns, vals):
        self.out.setdefault(tid, []).append((ns, vals))


class Frame:
    def __init__(self, name, ns, prev):
        self.name = name
        self.ns = ns         # its enter's record
        self.prev = prev     # the thread's record before that
        self.pend = {}       # derived name -> what it keeps


def holds(cond, params):
    if cond is None:
        return True
    return bool(eval(cond, {}, dict(params)))


class World:
    def __init__(self, derived):
        self.derived = derived
        self.stacks = {}
        self.prev = {}       # tid -> time of the thread's record before

    def stack(self, tid):
        return self.stacks.setdefault(tid, [])

    def names(self, tid):
        return [f.name for f in self.stack(tid)]

    # a B: an event (params) or the entry of a component (params None)
    def b_seen(self, d, tid, ns, params):
        st = self.stack(tid)
        vals = () if params is None else tuple(params.items())
        if d.kind == 'contains':
            d.nb[tid] = d.nb.get(tid, 0) + 1
            for f in reversed(st):
                p = f.pend.get(d.name)
                if p is None:
                    continue
                if p['has']:
                    break
                p['has'] = True
                p['data'] = vals
        elif d.kind == 'calls':
            if st and d.name in st[-1].pend:
                p = st[-1].pend[d.name]
                p['n'] += 1
                if not p['has']:
                    p['has'] = True
                    p['data'] = vals
        else:
            a = None
            if d.c is None:
                a = d.last.get(tid)
            else:
                for f in reversed(st):
                    p = f.pend.get(d.name)
                    if p is not None and p['has']:
                        a = p
                        break
            if a is not None:
                d.emit(tid, ns, (('gap_ns', (a['prev'], a['ns'])),) + a['data'] + vals)

    def a_seen(self, d, tid, ns, params):
        vals = () if params is None else tuple(params.items())
        prev = self.prev.get(tid, 0)
        if d.c is None:
            d.last[tid] = {'has': True, 'ns': ns, 'prev': prev, 'data': vals}
            return
        for f in reversed(self.stack(tid)):
            p = f.pend.get(d.name)
            if p is not None:
                p.update(has=True, ns=ns, prev=prev, data=vals)
                return

    def enter(self, tid, name, ns):
        st = self.stack(tid)
        for d in self.derived:
            if not d.b.event and d.b.name == name:
                self.b_seen(d, tid, ns, None)
        f = Frame(name, ns, self.prev.get(tid, 0))
        for d in self.derived:
            if d.kind in ('contains', 'calls') and d.a.name == name:
                f.pend[d.name] = {'has': False, 'data': (), 'n': 0,
                                  'n0': d.nb.get(tid, 0)}
            if d.kind == 'before' and d.c is not None and d.c == name:
                f.pend[d.name] = {'has': False, 'data': (), 'ns': 0}
        st.append(f)

    def pop(self, tid, ns):
        st = self.stack(tid)
        f = st.pop()
        for d in self.derived:
            p = f.pend.get(d.name)
            if p is None:
                continue
            if d.kind in ('contains', 'calls'):
                n = (d.nb.get(tid, 0) - p['n0']) if d.kind == 'contains' else p['n']
                if n > 0:
                    d.emit(tid, ns, (('a_ns', (f.prev, f.ns)), ('b_count', n)) + p['data'])
            elif p['has']:
                for g in reversed(st):
                    q = g.pend.get(d.name)
                    if q is not None:
                        q.update(has=True, ns=p['ns'], prev=p['prev'], data=p['data'])
                        break
        for d in self.derived:
            if d.kind == 'before' and not d.a.event and d.a.name == f.name:
                self.a_seen(d, tid, ns, None)

    def leave(self, tid, name, ns):
        st = self.stack(tid)
        for i in range(len(st) - 1, -1, -1):
            if st[i].name == name:
                while len(st) > i:
                    self.pop(tid, ns)
                return

    def event(self, tid, name, ns, params):
        for d in self.derived:
            if d.b.event and d.b.name == name and (d.kind != 'contains' or
                                                   holds(d.cond, params)):
                self.b_seen(d, tid, ns, params)
            if d.kind == 'before' and d.a.event and d.a.name == name:
                self.a_seen(d, tid, ns, params)


def parse_derive(fields):
    name, kind = fields[1], fields[2]
    if kind in ('contains', 'calls'):
        a = Part(fields[3] + ':' + fields[4])
        b = Part(fields[5] + ':' + fields[6])
        cond = fields[7] if len(fields) > 7 else None
        return Derived(name, kind, a, b, None, cond)
    if kind == 'before':
        a = Part(fields[3] + ':' + fields[4])
        b = Part(fields[5] + ':' + fields[6])
        c = fields[7] if len(fields) > 7 else None
        return Derived(name, kind, a, b, c)
    raise SystemExit('bad derive %r' % ':'.join(fields))


def where(fields, i):
    """An optional within|outside:C at fields[i]; the next index."""
    if len(fields) > i + 1 and fields[i] in ('within', 'outside'):
        return fields[i], fields[i + 1], i + 2
    return None, None, i


def inside(world, tid, how, comp):
    if how is None:
        return True
    return (comp in world.names(tid)) == (how == 'within')


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    events = read(sys.argv[1])
    specs = [s.split(':') for s in sys.argv[2:]]
    derived = [parse_derive(f) for f in specs if f[0] == 'derive']
    dnames = {d.name for d in derived}
    world = World(derived)
    queries = [f for f in specs if f[0] != 'derive']
    counts = {}
    groups = {}
    lists = {}
    windows = {}
    program = {}
    for _, ns, tid, name, params in events:
        if name in dnames:
            program.setdefault(name, {}).setdefault(tid, []).append((ns, params))
            continue
        if name in ('enter', 'function-enter'):
            world.enter(tid, params.get('name', params.get('function')), ns)
        elif name in ('leave', 'function-leave'):
            world.leave(tid, params.get('name', params.get('function')), ns)
        else:
            world.event(tid, name, ns, params)
        world.prev[tid] = ns
        for q in queries:
            kind, qname = q[0], q[1]
            if kind == 'window':
                w = windows.setdefault(qname, {'open': False, 'n': 0})
                # the close first: an event that is both opens
                if name == q[4]:
                    w['open'] = False
                if name == q[3]:
                    w['open'] = True
                if name == q[2] and w['open']:
                    w['n'] += 1
                continue
            if q[2] != name:
                continue
            if kind == 'count':
                how, comp, i = where(q, 3)
                cond = q[i] if len(q) > i else None
                if inside(world, tid, how, comp) and holds(cond, params):
                    counts[qname] = counts.get(qname, 0) + 1
            elif kind == 'sum':
                how, comp, i = where(q, 4)
                cond = q[i] if len(q) > i else None
                if inside(world, tid, how, comp) and holds(cond, params):
                    counts[qname] = counts.get(qname, 0) + params[q[3]]
            elif kind == 'by':
                how, comp, _ = where(q, 4)
                if inside(world, tid, how, comp):
                    g = groups.setdefault(qname, {})
                    g[params[q[3]]] = g.get(params[q[3]], 0) + 1
            elif kind == 'list':
                how, comp, i = where(q, 4)
                cond = q[i] if len(q) > i else None
                if inside(world, tid, how, comp) and holds(cond, params):
                    lists.setdefault(qname, []).append(params[q[3]])
    for q in queries:
        kind, qname = q[0], q[1]
        if kind in ('count', 'sum'):
            print('ref %s %s' % (qname, counts.get(qname, 0)))
        elif kind == 'by':
            for k, n in sorted(groups.get(qname, {}).items(), key=lambda kv: str(kv[0])):
                print('ref %s %s %d' % (qname, k, n))
        elif kind == 'list':
            for v in lists.get(qname, []):
                print('ref %s %s' % (qname, v))
        elif kind == 'window':
            print('ref %s %d' % (qname, windows.get(qname, {'n': 0})['n']))
        elif kind == 'derivedby':
            d = next(x for x in derived if x.name == q[2])
            g = {}
            for evs in d.out.values():
                for _, vals in evs:
                    v = dict(vals)[q[3]]
                    g[v] = g.get(v, 0) + 1
            for k, n in sorted(g.items(), key=lambda kv: str(kv[0])):
                print('ref %s %s %d' % (qname, k, n))
    return compare(derived, program)


def within(got, start, end):
    """A time the program measured from a start it read between the
    thread's record before the start's and the start's own record (START,
    a pair), to its derived event's time END: in that span, give or take
    the rounding of two conversions of the clock."""
    lo, hi = start
    return end - hi - 1000 <= got <= end - lo + 1000


def compare(derived, program):
    bad = 0
    for d in derived:
        mine = d.out
        theirs = program.get(d.name, {})
        n = 0
        for tid in sorted(set(mine) | set(theirs)):
            a = mine.get(tid, [])
            b = theirs.get(tid, [])
            if len(a) != len(b):
                print('differ: %s thread %d: %d here, %d from the program'
                      % (d.name, tid, len(a), len(b)))
                bad += 1
                continue
            for k, ((_, va), (end, pb)) in enumerate(zip(a, b)):
                va = dict(va)
                for key, v in va.items():
                    got = pb.get(key)
                    if key in ('a_ns', 'gap_ns'):
                        ok = isinstance(got, int) and got >= 0 and within(got, v, end)
                        # (the span the recording's times allow)
                        shown = '%d..%d (from %r to %d)' % (end - v[1], end - v[0], v, end)
                    else:
                        ok = got == v
                        shown = repr(v)
                    if not ok:
                        print('differ: %s thread %d #%d: %s=%s here, %r from the program'
                              % (d.name, tid, k, key, shown, got))
                        bad += 1
                        break
                if set(pb) != set(va):
                    print('differ: %s thread %d #%d: parameters %s here, %s from the program'
                          % (d.name, tid, k, sorted(va), sorted(pb)))
                    bad += 1
            n += len(a)
        print('%s: %d derived events' % (d.name, n))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
