/*
 * agentx_pdu.h - the AgentX PDU header (RFC 2741 6.1): its length,
 * version, flag and PDU types, shared by the Response encoder, the fast
 * read path and the session's transport.  net-snmp's own definitions
 * (agentx/protocol.h) are not installed.
 */
#ifndef HWR10K_AGENTX_PDU_H
#define HWR10K_AGENTX_PDU_H

#define AX_HEADER_LEN		   20
#define AX_VERSION		   1
#define AX_FLAG_NETWORK_BYTE_ORDER 0x10

/* h.type (RFC 2741 6.1) of the PDUs the agent reads or writes */
enum ax_pdu_type {
	AX_PDU_GET = 5,
	AX_PDU_GETNEXT = 6,
	AX_PDU_GETBULK = 7,
	AX_PDU_TESTSET = 8,
	AX_PDU_COMMITSET = 9,
	AX_PDU_UNDOSET = 10,
	AX_PDU_CLEANUPSET = 11,
	AX_PDU_NOTIFY = 12,
	AX_PDU_RESPONSE = 18,
};

#endif
