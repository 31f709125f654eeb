#!/usr/bin/env python3
"""bench/passpersist.py ROOT CPUS COLUMNS - the reference an administrator
would write without this project: an snmpd pass_persist script serving a
per-CPU table of Counter64s under ROOT (ROOT.1.COLUMN.CPU, columns from 1,
CPUs from 0), the way hwR10kEvCtrCpuTable lays them out.  Values move
with time like the sim backend's.  Protocol: snmpd(8) pass_persist
("PING", "get", "getnext", "set")."""
import bisect
import sys
import time


def main():
    root = tuple(int(x) for x in sys.argv[1].strip(".").split("."))
    cpus, columns = int(sys.argv[2]), int(sys.argv[3])
    oids = sorted(root + (1, col, cpu)
                  for col in range(1, columns + 1) for cpu in range(cpus))
    start = time.monotonic()
    out = sys.stdout

    def value(o):
        col, cpu = o[-2], o[-1]
        return int((time.monotonic() - start) * 1000) * col * (cpu % 8 + 1)

    def answer(o):
        out.write(".%s\ncounter64\n%d\n" % (".".join(map(str, o)), value(o)))

    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "PING":
            out.write("PONG\n")
        elif cmd in ("get", "getnext"):
            req = tuple(int(x) for x in sys.stdin.readline().strip().strip(".").split(".") if x)
            if cmd == "get":
                i = bisect.bisect_left(oids, req)
                if i < len(oids) and oids[i] == req:
                    answer(req)
                else:
                    out.write("NONE\n")
            else:
                i = bisect.bisect_right(oids, req)
                if i < len(oids):
                    answer(oids[i])
                else:
                    out.write("NONE\n")
        elif cmd == "set":
            sys.stdin.readline()
            sys.stdin.readline()
            out.write("not-writable\n")
        elif cmd == "":
            break
        out.flush()


if __name__ == "__main__":
    main()
