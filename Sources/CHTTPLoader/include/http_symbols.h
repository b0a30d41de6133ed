/* The functions of libmicrohttpd that CHTTPLoader calls: the list its loader (loader.c) is
 * generated from, in the style of CGraphicsLoader's symbols.h (see CLoader.h). Each function gets
 * a slot in one table of typed function pointers, filled with dlsym when `preview` starts its
 * server; loader.c checks each entry against the library's header at compile time.
 *
 * OUDS_LIBRARY(id, soname, macOS file name, Debian package) (scripts/package reads this line for
 * the .deb's Depends); OUDS_FUNCTION(library id, result type, name, (parameters), (arguments)).
 *
 * No include guard: included several times with different definitions of the three macros. */

OUDS_LIBRARY(MICROHTTPD, "libmicrohttpd.so.12", "libmicrohttpd.12.dylib", "libmicrohttpd12")

OUDS_FUNCTION(MICROHTTPD, struct MHD_Daemon *, MHD_start_daemon, (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...), (flags, port, apc, apc_cls, dh, dh_cls))
OUDS_PROCEDURE(MICROHTTPD, MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))
OUDS_FUNCTION(MICROHTTPD, const union MHD_DaemonInfo *, MHD_get_daemon_info, (struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...), (daemon, info_type))
OUDS_FUNCTION(MICROHTTPD, const char *, MHD_lookup_connection_value, (struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key), (connection, kind, key))
OUDS_FUNCTION(MICROHTTPD, int, MHD_get_connection_values, (struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *iterator_cls), (connection, kind, iterator, iterator_cls))
OUDS_FUNCTION(MICROHTTPD, struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
OUDS_FUNCTION(MICROHTTPD, struct MHD_Response *, MHD_create_response_from_callback, (uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls, MHD_ContentReaderFreeCallback crfc), (size, block_size, crc, crc_cls, crfc))
OUDS_FUNCTION(MICROHTTPD, enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content), (response, header, content))
OUDS_FUNCTION(MICROHTTPD, enum MHD_Result, MHD_queue_response, (struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response), (connection, status_code, response))
OUDS_PROCEDURE(MICROHTTPD, MHD_destroy_response, (struct MHD_Response *response), (response))
