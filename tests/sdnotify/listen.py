#!/usr/bin/env python3
"""systemd's side of sd_notify(3), for tests: bind a unix datagram socket
at PATH and append each notification to OUT as one line, 'MS KEY=V|KEY=V'
(milliseconds since start), until killed."""
import os
import socket
import sys
import time

path, out = sys.argv[1], sys.argv[2]
try:
    os.unlink(path)
except FileNotFoundError:
    pass
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
t0 = time.monotonic()
with open(out, "a", buffering=1) as f:
    f.write("0 LISTENING\n")
    while True:
        msg = s.recv(4096).decode("utf-8", "replace")
        ms = int((time.monotonic() - t0) * 1000)
        f.write("%d %s\n" % (ms, msg.strip("\n").replace("\n", "|")))
