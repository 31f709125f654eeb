/*
 * confcheck.h - what -t checks beyond the lines themselves, so that it
 * passes only a config a start would take (confcheck.c).
 */
#ifndef HWR10K_CONFCHECK_H
#define HWR10K_CONFCHECK_H

#include "agent.h"

/* A check across lines failed (config_validate's err): logged as an
 * error with the file and lines of the tokens it names ("FILE: lines 3
 * and 7: pcpHost and pcpArchive exclude each other ..."). */
void agent_confcheck_say_across(const struct config *cfg, const char *err);
/*
 * -t: every file the config names that a start opens (the backend's
 * replayFile, pcpArchive's .meta) and every -c file, opened for reading
 * as the agent's user and group would (-u/-g, see
 * agent_privilege_read_check); each failure logged, naming the config line
 * ("FILE: line N: replayFile /x: cannot read: No such file or
 * directory").  The number of problems.
 */
int agent_confcheck_files(const struct config *cfg, const struct privilege *p);

#endif
