/* Opens libmicrohttpd the first time `preview` needs it (dlopen by soname) and calls it through
 * one table of typed pointers, in the loader style CGraphicsLoader shares (CLoader.h): the list
 * is include/http_symbols.h. ouds-render links none of it, so that other commands never map it nor
 * the GnuTLS libraries it depends on. Portable C. */

#include "CHTTPLoader.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <strings.h>

/* One slot per function, typed as the header declares it; all filled by ouds_http_load. */
static struct {
#define OUDS_LIBRARY(id, soname, macos, package)
#define OUDS_FUNCTION(library, result, name, parameters, arguments) OUDS_LOADER_SLOT(name)
#define OUDS_PROCEDURE(library, name, parameters, arguments) OUDS_LOADER_SLOT(name)
#include "http_symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE
} table;

/* The checks, the libraries and the functions of http_symbols.h (CLoaderTables.h). */
#define OUDS_LOADER_LIST "http_symbols.h"
#define OUDS_LOADER_TABLE table
#include "CLoaderTables.h"

/* Every function at once (RTLD_NOW), local: nothing else needs its symbols. */
const char *ouds_http_load(void) {
  return ouds_loader_open(libraries, OUDS_LIBRARY_MICROHTTPD, symbols,
                          (int)(sizeof symbols / sizeof symbols[0]), RTLD_NOW | RTLD_LOCAL);
}

struct MHD_Daemon *ouds_http_start(const char *address, uint16_t port, unsigned connection_limit,
                                   size_t memory_limit, unsigned timeout,
                                   MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed,
                                   void *completed_context, int *error) {
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  const struct sockaddr *socket_address;
  unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    socket_address = (const struct sockaddr *)&v4;
  } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    socket_address = (const struct sockaddr *)&v6;
    flags |= MHD_USE_IPv6;
  } else {
    *error = EINVAL;
    return NULL;
  }
  if (ouds_http_load() != NULL) {
    *error = ENOSYS;
    return NULL;
  }
  errno = 0;
  struct MHD_Daemon *daemon = table.MHD_start_daemon(
      flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR, socket_address,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
      memory_limit, MHD_OPTION_CONNECTION_TIMEOUT, timeout, MHD_OPTION_NOTIFY_COMPLETED,
      completed, completed_context, MHD_OPTION_END);
  if (daemon == NULL) *error = errno != 0 ? errno : EADDRINUSE;
  return daemon;
}

uint16_t ouds_http_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = table.MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

void ouds_http_stop(struct MHD_Daemon *daemon) { table.MHD_stop_daemon(daemon); }

const char *ouds_http_header_value(struct MHD_Connection *connection, const char *name) {
  return table.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

struct ouds_header_count {
  const char *name;
  int count;
};

static enum MHD_Result count_header(void *context, enum MHD_ValueKind kind, const char *key,
                                    const char *value) {
  struct ouds_header_count *counting = context;
  (void)kind;
  (void)value;
  if (key != NULL && strcasecmp(key, counting->name) == 0) counting->count += 1;
  return MHD_YES;
}

int ouds_http_header_count(struct MHD_Connection *connection, const char *name) {
  struct ouds_header_count counting = {name, 0};
  table.MHD_get_connection_values(connection, MHD_HEADER_KIND, count_header, &counting);
  return counting.count;
}

const char *ouds_http_query_value(struct MHD_Connection *connection, const char *key) {
  return table.MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, key);
}

struct MHD_Response *ouds_http_bytes(size_t size, const void *data) {
  return table.MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

struct MHD_Response *ouds_http_stream(size_t block, MHD_ContentReaderCallback reader,
                                      void *context, MHD_ContentReaderFreeCallback done) {
  return table.MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, block, reader, context, done);
}

enum MHD_Result ouds_http_header(struct MHD_Response *response, const char *name,
                                 const char *value) {
  return table.MHD_add_response_header(response, name, value);
}

enum MHD_Result ouds_http_queue(struct MHD_Connection *connection, unsigned int status,
                                struct MHD_Response *response) {
  return table.MHD_queue_response(connection, status, response);
}

void ouds_http_release(struct MHD_Response *response) { table.MHD_destroy_response(response); }
