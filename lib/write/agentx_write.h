/*
 * agentx_write.h - the set phases of a master's request (RFC 2741
 * 7.2.4): a TestSet's varbinds read with the decoder and mapped to the
 * alarm table's columns (anything else: notWritable for an object of
 * ours, noCreation for a name that is none; wrongType for a value not of
 * the column's SMI type), then lib/write/alarm_write.c, the one write path,
 * decides.  Without a writer, or with 'alarmSet no', the module is
 * read-only: a TestSet gets notWritable at its first varbind.
 */
#ifndef HWR10K_AGENTX_WRITE_H
#define HWR10K_AGENTX_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "agentx/agentx_decode.h"
#include "write/alarm_write.h"
#include "view/mibview.h"

/* The error and index of the Response to r, a set phase (w may be
 * NULL); false for a CleanupSet, which has no Response. */
bool write_answer_set(const struct mib_view *view, struct alarm_writer *w,
		      const struct ax_request *r, uint16_t *error,
		      uint16_t *index);

#endif
