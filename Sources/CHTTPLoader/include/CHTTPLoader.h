/* libmicrohttpd, opened when `preview` starts its server and called through one table, so that
 * no other command maps it (nor the TLS libraries it needs). PreviewServer's only door to it; the
 * loader is CGraphicsLoader's style (CLoader.h), its list include/http_symbols.h. */
#ifndef OUDS_CHTTPLOADER_H
#define OUDS_CHTTPLOADER_H

#include "CLoader.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <microhttpd.h>

/* Opens libmicrohttpd (once; later calls return the first answer). NULL when loaded, else one
 * line saying why it cannot be, naming its Debian package (see ouds_loader_open). */
const char *ouds_http_load(void);

/* Starts a daemon on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port), one
 * thread per connection, at most `connection_limit` connections, `memory_limit` bytes of request
 * head per connection, connections idle `timeout` seconds closed. NULL on failure, with `*error`
 * set to an errno value (EINVAL for an address that is not a literal, EADDRINUSE…). */
struct MHD_Daemon *ouds_http_start(const char *address, uint16_t port, unsigned connection_limit,
                                   size_t memory_limit, unsigned timeout,
                                   MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed,
                                   void *completed_context, int *error);
/* The port the daemon listens on. */
uint16_t ouds_http_port(struct MHD_Daemon *daemon);
/* Stops the daemon: closes its socket and joins its threads. */
void ouds_http_stop(struct MHD_Daemon *daemon);
/* A request header, NULL when absent. */
const char *ouds_http_header_value(struct MHD_Connection *connection, const char *name);
/* How many times the request carries the header `name` (case-insensitive). */
int ouds_http_header_count(struct MHD_Connection *connection, const char *name);
/* A query argument (decoded), NULL when absent. */
const char *ouds_http_query_value(struct MHD_Connection *connection, const char *key);
/* A response holding a copy of `size` bytes at `data`. */
struct MHD_Response *ouds_http_bytes(size_t size, const void *data);
/* A response of unknown size whose body `reader` writes in blocks. */
struct MHD_Response *ouds_http_stream(size_t block, MHD_ContentReaderCallback reader,
                                      void *context, MHD_ContentReaderFreeCallback done);
enum MHD_Result ouds_http_header(struct MHD_Response *response, const char *name,
                                 const char *value);
enum MHD_Result ouds_http_queue(struct MHD_Connection *connection, unsigned int status,
                                struct MHD_Response *response);
void ouds_http_release(struct MHD_Response *response);

#endif
