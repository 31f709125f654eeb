/*
 * revisions.c - the MIB's revision history (REVISION clauses), newest
 * first: add a row when the MIB changes (emit.c writes them).
 */
#include "mibmodel.h"

const struct mib_revision mib_revisions[] = {
    {"202612060700Z", "hwR10kEvCtrCpuGroupName: the name of each CPU's\n"
		      "group (empty for a CPU in none), so that a manager\n"
		      "can compare a CPU with its group's values."},
    {"202612060000Z", "CPU groups (a NUMA node by default, or the\n"
		      "configuration's cpuGroup lines):\n"
		      "hwR10kEvCtrGroupTable and its counters, rates and\n"
		      "statistics summed over each group's CPUs from the\n"
		      "poll of the per-CPU values and the totals; where a\n"
		      "discontinuity happened, per CPU\n"
		      "(hwR10kEvCtrCpuDiscontinuityTime) and per group\n"
		      "(hwR10kEvCtrGroupDiscontinuityTime)."},
    {"202612051400Z", "hwR10kEvCtrCountingTime: the time the counters\n"
		      "cover, by the backend's clock, so that a manager's\n"
		      "rate between any two of its readings is exact.  A\n"
		      "new poll becomes visible only between bursts of\n"
		      "requests: one walk sees one poll."},
    {"202612051100Z", "hwR10kEvCtrAlarmOwner (who created a row, as\n"
		      "hcAlarmOwner) and hwR10kEvCtrAlarmNextIndex (an index\n"
		      "to create a row at).  One rule for a row whatever its\n"
		      "status: hwR10kEvCtrAlarmCpu is -1 unless the scope is\n"
		      "cpu(2); hwR10kEvCtrAlarmEvents and ...Dropped never go\n"
		      "backwards while the row exists; notReady rows are\n"
		      "removed after a timeout.  hwR10kEvCtrPollErrors counts\n"
		      "problems, one per failing metric per poll.  The\n"
		      "agent's start under a running master is a counter\n"
		      "discontinuity (hwR10kEvCtrDiscontinuityTime,\n"
		      "hwR10kEvCtrCounterDiscontinuity): its counters start\n"
		      "again from 0.  hwR10kEvCtrLastPollTime and\n"
		      "hwR10kEvCtrDiscontinuityTime read 0 for events\n"
		      "before the master's last re-initialization (they\n"
		      "said: before the agent started)."},
    {"202612050000Z", "hwR10kEvCtrAlarmTable is read-create, as RMON's\n"
		      "alarmTable and HC-ALARM-MIB's hcAlarmTable: a\n"
		      "manager creates, changes and destroys alarms with\n"
		      "hwR10kEvCtrAlarmRowStatus; the thresholds are written\n"
		      "as Unsigned32 halves (...Low, ...High), as RFC 3434\n"
		      "does; hwR10kEvCtrAlarmStorageType says which rows are\n"
		      "the config file's and which are kept across restarts.\n"
		      "Indexes up to 65535."},
    {"202612042200Z", "Rates and statistics have no instance when an\n"
		      "input has no reading at the poll, and cover the\n"
		      "time since the last reading after one; a counter\n"
		      "that goes backwards is a discontinuity of its own.\n"
		      "UNITS of hwR10kEvCtrStatScondOk say it is a count\n"
		      "per poll interval."},
    {"202612040000Z", "The 64-bit gauges (rates, alarm thresholds and\n"
		      "values, successful store-conditionals) are\n"
		      "CounterBasedGauge64 of HCNUM-TC.  hwR10kEvCtrCpuStatus\n"
		      "has ended(3).  UNITS name the rendered value's unit;\n"
		      "the statistics say what they compute, quote hw.help\n"
		      "exactly, and the primary data miss ratio is not\n"
		      "served for an R10000 revision 2.x.  State, rates and\n"
		      "CPU rows say what an outage or a recording's end\n"
		      "serves.  Each notification's DESCRIPTION begins\n"
		      "with a one-line summary naming its objects."},
    {"202612030000Z", "Added hwR10kEvCtrDiscontinuityReason to\n"
		      "hwR10kEvCtrCounterDiscontinuity.  DESCRIPTIONs say\n"
		      "what each backend serves for state and cpurev, how\n"
		      "the per-CPU values relate to PCP's sums, and PCP's\n"
		      "own revision threshold for vcc and fucomp.  Added the\n"
		      "derived statistics hw.help describes\n"
		      "(hwR10kEvCtrStats, hwR10kEvCtrCpuStatTable)."},
    {"202612020000Z",
     "Initial version: state, CPU revision, the 31 R10000\n"
     "event counters summed and per CPU, counting status, event\n"
     "rates, threshold alarms, the agent's objects and\n"
     "notifications."},
};

const size_t mib_revisions_count =
    sizeof(mib_revisions) / sizeof(mib_revisions[0]);

const char *mib_model_revision(void)
{
	return mib_revisions[0].date;
}

