#!/usr/bin/env python3
"""tests/agentx/outstanding.py SOCKET ROOT SECONDS - a master that keeps
30 large GetBulk requests outstanding for SECONDS and reads the answers
steadily, at 8 MB/s (a busy master with many pollers), then reads on
until the subagent's Close at its stop.  Prints the
bytes it read; the caller watches the subagent's memory meanwhile (its
output buffer must hold what is unread, not what was ever sent)."""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
SECONDS = float(sys.argv.pop(3))
import master as mx  # noqa: E402  (reads SOCKET and ROOT from argv)

RATE = 8e6  # bytes per second the master reads: slower than the agent
# answers, so that its queue is never empty (and never full: the socket
# and the queue hold at most 30 answers)


class Throttled(mx.Master):
    """Reads at most RATE bytes per second."""
    t0 = None
    taken = 0

    def recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            if self.t0 is None:
                self.t0 = time.time()
            ahead = self.taken / RATE - (time.time() - self.t0)
            if ahead > 0:
                time.sleep(ahead)
            chunk = self.conn.recv(min(n - len(buf), 65536))
            if not chunk:
                raise EOFError
            self.taken += len(chunk)
            buf += chunk
        return buf


m = Throttled()
m.accept()
walk = struct.pack("!HH", 0, 1000) + mx.rng(mx.ROOT)
outstanding = set()
got = nbytes = 0
t_end = time.time() + SECONDS
while len(outstanding) < 30:
    outstanding.add(m.send(mx.GETBULK, walk, tid=7))
while time.time() < t_end:
    t, flags, sid, tid, pid, body, bo = m.read_pdu()
    nbytes += 20 + len(body)
    if t == mx.RESPONSE and pid in outstanding:
        outstanding.discard(pid)
        got += 1
        outstanding.add(m.send(mx.GETBULK, walk, tid=7))
    elif t in (mx.PING, mx.NOTIFY, mx.ADDCAPS):
        m.respond(tid, pid)
print("ok: %d GetBulk answered, %.1f MB read in %.0f s with 30 outstanding"
      % (got, nbytes / 1e6, SECONDS))
sys.stdout.flush()
# the subagent stops (the caller's SIGTERM): every answer still queued,
# then its Close, whole and in order
closed = False
m.conn.settimeout(15)
try:
    while True:
        t, flags, sid, tid, pid, body, bo = m.read_pdu()
        if t == mx.CLOSE:
            closed = True
            break
        if t != mx.RESPONSE and t not in (mx.PING, mx.NOTIFY, mx.ADDCAPS):
            mx.fail("an unexpected PDU type %d before the Close" % t)
except (EOFError, OSError) as e:
    mx.fail("the stream ended without a Close: %r" % e)
if closed:
    print("ok: the Close came after every queued answer, as a whole PDU")
