/*
 * agentx_pdu.h - RFC 2741's wire constants, in one place: the header, the
 * PDU types, the flags, the error codes and the varbind types.
 */
#ifndef HWR10K_AGENTX_PDU_H
#define HWR10K_AGENTX_PDU_H

#define AX_HEADER_LEN 20
#define AX_VERSION    1
/* The largest payload this subagent frames (RFC 2741 sets none; a GetBulk
 * the master sends is far smaller): past it the stream is dropped. */
#define AX_PAYLOAD_MAX (1u << 20)

/* h.flags (RFC 2741 6.1) */
#define AX_FLAG_INSTANCE_REGISTRATION 0x01
#define AX_FLAG_NON_DEFAULT_CONTEXT   0x08
#define AX_FLAG_NETWORK_BYTE_ORDER    0x10

/* An OID's n_subid is one octet (RFC 2741 5.1). */
#define AX_OID_MAX 255

/* h.type (RFC 2741 6.1) */
enum ax_pdu_type {
	AX_PDU_OPEN = 1,
	AX_PDU_CLOSE = 2,
	AX_PDU_REGISTER = 3,
	AX_PDU_UNREGISTER = 4,
	AX_PDU_GET = 5,
	AX_PDU_GETNEXT = 6,
	AX_PDU_GETBULK = 7,
	AX_PDU_TESTSET = 8,
	AX_PDU_COMMITSET = 9,
	AX_PDU_UNDOSET = 10,
	AX_PDU_CLEANUPSET = 11,
	AX_PDU_NOTIFY = 12,
	AX_PDU_PING = 13,
	AX_PDU_INDEXALLOCATE = 14,
	AX_PDU_INDEXDEALLOCATE = 15,
	AX_PDU_ADDAGENTCAPS = 16,
	AX_PDU_REMOVEAGENTCAPS = 17,
	AX_PDU_RESPONSE = 18,
};

/* res.error (RFC 2741 6.2.16): SNMP's error-status values, and these */
enum ax_error {
	AX_ERR_NOERROR = 0,
	AX_ERR_GENERR = 5,
	AX_ERR_WRONGTYPE = 7,
	AX_ERR_WRONGLENGTH = 8,
	AX_ERR_WRONGVALUE = 10,
	AX_ERR_NOCREATION = 11,
	AX_ERR_INCONSISTENTVALUE = 12,
	AX_ERR_RESOURCEUNAVAILABLE = 13,
	AX_ERR_COMMITFAILED = 14,
	AX_ERR_UNDOFAILED = 15,
	AX_ERR_NOTWRITABLE = 17,
	AX_ERR_INCONSISTENTNAME = 18,
	AX_ERR_OPENFAILED = 256,
	AX_ERR_NOTOPEN = 257,
	AX_ERR_UNSUPPORTEDCONTEXT = 262,
	AX_ERR_DUPLICATEREGISTRATION = 263,
	AX_ERR_PARSEERROR = 266,
	AX_ERR_REQUESTDENIED = 267,
	AX_ERR_PROCESSINGERROR = 268,
};

/* close.reason (RFC 2741 6.2.2) */
enum ax_close_reason {
	AX_CLOSE_OTHER = 1,
	AX_CLOSE_PARSEERROR = 2,
	AX_CLOSE_PROTOCOLERROR = 3,
	AX_CLOSE_TIMEOUTS = 4,
	AX_CLOSE_SHUTDOWN = 5,
	AX_CLOSE_BYMANAGER = 6,
};

/* v.type (RFC 2741 5.4): the SNMP types (the same numbers as their BER
 * tags) and the exceptions */
enum ax_data_type {
	AX_INTEGER = 2,
	AX_OCTET_STRING = 4,
	AX_NULL = 5,
	AX_OBJECT_ID = 6,
	AX_IPADDRESS = 64,
	AX_COUNTER32 = 65,
	AX_GAUGE32 = 66,
	AX_TIMETICKS = 67,
	AX_OPAQUE = 68,
	AX_COUNTER64 = 70,
	AX_NO_SUCH_OBJECT = 128,
	AX_NO_SUCH_INSTANCE = 129,
	AX_END_OF_MIB_VIEW = 130,
};

#endif
