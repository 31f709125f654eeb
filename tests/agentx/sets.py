#!/usr/bin/env python3
"""tests/agentx/sets.py SOCKET ROOT STORE AGENT-LOG AGENT-PID [verify] - the
set phases in the orders net-snmp's snmpd never sends, from a scripted
AgentX master (RFC 2741 allows them; other masters may send them):

- a committed destroy undone: the row is back in the table and in the
  store, and a SIGHUP (which reads the store back) keeps it;
- two transactions committed, the first undone: the second's row stays,
  in the table and in the store;
- two pending transactions giving one name: the second is refused;
- a TestSet again with a committed transaction's IDs: refused, and its
  UndoSet still undoes it.

After each phase the store holds exactly the rows the table serves.  With
'verify' (after a restart of the agent) it checks only that the table is
what the store kept.  Prints "ok: ..." per check, exits 1 on a failure."""
import os
import re
import signal
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import master as mx  # noqa: E402  (takes SOCKET and ROOT from argv)

COMMITSET, UNDOSET = 9, 10
INCONSISTENTVALUE, GAUGE32 = 12, 66
STORE, LOG, AGENT_PID = sys.argv[3], sys.argv[4], int(sys.argv[5])
VERIFY = len(sys.argv) > 6 and sys.argv[6] == "verify"
ENTRY = mx.ROOT + (1, 7, 1)
NAME, METRIC, RISING_LOW, ROW_STATUS = 2, 3, 17, 22
ACTIVE, CREATE_AND_GO, DESTROY = 1, 4, 6


def vb_int(col, row, v, typ=mx.INTEGER):
    return struct.pack("!HH", typ, 0) + mx.enc_oid(ENTRY + (col, row)) + \
        struct.pack("!i" if typ == mx.INTEGER else "!I", v)


def vb_str(col, row, s):
    b = s.encode()
    return struct.pack("!HH", mx.OCTETS, 0) + mx.enc_oid(ENTRY + (col, row)) + \
        struct.pack("!I", len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def create(row, name):
    return (vb_str(NAME, row, name) + vb_str(METRIC, row, "hw.r10kevctr.cycles") +
            vb_int(RISING_LOW, row, 1000, GAUGE32) + vb_int(ROW_STATUS, row, CREATE_AND_GO))


def phase(m, typ, tid, payload=b""):
    """A set phase of transaction tid: (error, index) of its Response."""
    pid = m.send(typ, payload, tid=tid)
    err, idx, _ = m.response_to(pid)
    return err, idx


def cleanup(m, tid):
    m.send(mx.CLEANUPSET, b"", tid=tid)  # no Response (RFC 2741 7.2.4.4)


def served(m, row):
    err, _, vb = m.request(mx.GET, mx.rng(ENTRY + (ROW_STATUS, row)))
    mx.check(err == 0, "Get of row %d" % row, (err, vb))
    return vb[0][0] == mx.INTEGER and vb[0][2] == ACTIVE


def stored():
    with open(STORE) as f:
        return sorted(int(x) for x in re.findall(r"^alarmRow (\d+) ", f.read(), re.M))


def table_is(m, rows, what):
    """The table serves exactly rows among 1100..1109, and the store
    holds exactly them."""
    got = [r for r in range(1100, 1110) if served(m, r)]
    mx.check(got == rows, what + ": the rows served", got)
    if not VERIFY:
        mx.check(stored() == rows, what + ": the rows stored", stored())


def reload(m, what):
    """SIGHUP, answered: the agent reads the store back."""
    with open(LOG) as f:
        before = f.read().count("reload: kept backend")
    os.kill(AGENT_PID, signal.SIGHUP)
    for _ in range(150):
        with open(LOG) as f:
            if f.read().count("reload: kept backend") > before:
                break
        # answer its Pings meanwhile: a Get is a round trip
        m.request(mx.GET, mx.rng(mx.ROOT + (1, 1, 1, 0)))
        time.sleep(0.1)
    else:
        mx.fail("no reload after SIGHUP (%s)" % what)


def undo_a_destroy(m):
    e = phase(m, mx.TESTSET, 20, create(1100, "kept"))
    mx.check(e == (0, 0), "TestSet of row 1100", e)
    mx.check(phase(m, COMMITSET, 20) == (0, 0), "CommitSet", None)
    cleanup(m, 20)
    table_is(m, [1100], "row 1100 created")
    mx.check(phase(m, mx.TESTSET, 21, vb_int(ROW_STATUS, 1100, DESTROY)) == (0, 0), "TestSet destroy", None)
    mx.check(phase(m, COMMITSET, 21) == (0, 0), "CommitSet destroy", None)
    table_is(m, [], "row 1100 destroyed")
    mx.check(phase(m, UNDOSET, 21) == (0, 0), "UndoSet destroy", None)
    table_is(m, [1100], "the destroy undone")
    reload(m, "after the undo")
    table_is(m, [1100], "the undone destroy after a SIGHUP")
    mx.ok("a destroy committed and undone: the row is back in the table and the store, and after a SIGHUP")


def interleaved(m):
    mx.check(phase(m, mx.TESTSET, 30, create(1101, "t1")) == (0, 0), "T1 TestSet", None)
    mx.check(phase(m, mx.TESTSET, 31, create(1102, "t2")) == (0, 0), "T2 TestSet", None)
    mx.check(phase(m, COMMITSET, 30) == (0, 0), "T1 CommitSet", None)
    mx.check(phase(m, COMMITSET, 31) == (0, 0), "T2 CommitSet", None)
    table_is(m, [1100, 1101, 1102], "T1 and T2 committed")
    mx.check(phase(m, UNDOSET, 30) == (0, 0), "T1 UndoSet", None)
    cleanup(m, 31)
    table_is(m, [1100, 1102], "T1 undone after T2 committed")
    # two pending transactions giving one name
    e = phase(m, mx.TESTSET, 32, create(1103, "same"))
    mx.check(e == (0, 0), "T3 TestSet", e)
    e = phase(m, mx.TESTSET, 33, vb_int(ROW_STATUS, 1104, 5) + vb_str(NAME, 1104, "same"))
    mx.check(e == (INCONSISTENTVALUE, 2), "T4 giving T3's name while T3 is pending", e)
    cleanup(m, 33)
    mx.check(phase(m, COMMITSET, 32) == (0, 0), "T3 CommitSet", None)
    cleanup(m, 32)
    table_is(m, [1100, 1102, 1103], "T3 committed, T4 refused")
    # a TestSet again with a committed transaction's IDs
    mx.check(phase(m, mx.TESTSET, 34, create(1105, "t5")) == (0, 0), "T5 TestSet", None)
    mx.check(phase(m, COMMITSET, 34) == (0, 0), "T5 CommitSet", None)
    e = phase(m, mx.TESTSET, 34, create(1106, "t6"))
    mx.check(e == (mx.PROCESSINGERROR, 1), "a TestSet again with T5's IDs", e)
    mx.check(phase(m, UNDOSET, 34) == (0, 0), "T5 UndoSet", None)
    table_is(m, [1100, 1102, 1103], "T5 undone")
    reload(m, "after the interleaved sets")
    table_is(m, [1100, 1102, 1103], "after a SIGHUP")
    mx.ok("interleaved transactions: an undo undoes its own rows only; one name for two pending sets refused; "
          "a TestSet again with a committed set's IDs refused, its undo data kept")


def main():
    m = mx.Master()
    m.accept()
    if VERIFY:
        table_is(m, [1100, 1102, 1103], "after a restart")
        mx.ok("after a restart the table is what the store kept")
        return
    undo_a_destroy(m)
    interleaved(m)
    mx.ok("all set-phase checks passed")


if __name__ == "__main__":
    main()
