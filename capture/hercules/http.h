/*
** capture/hercules/http.h — a small HTTP/1.0 GET client for Hercules' built-in HTTP server.
**
** Why not libcurl: fst asks one server for one short page a few hundred times a second,
** on loopback or an address the user names; what it must get right is the error cases
** (nothing listening, a server that is not Hercules, an answer too slow, too long or not
** HTTP at all) and those are easier to state and test in 200 lines than through a
** library's option space. Hercules 3.13 answers HTTP/1.0 with "Connection: close" and
** ends its header lines with a bare LF, so one request is one connection; the client
** accepts LF or CRLF line ends.
**
** fst_http_addr resolves "HOST" (a numeric address or a name) once; fst_http_get then
** connects, sends `GET path HTTP/1.0`, and reads the answer until the server closes,
** everything within `timeout_ms` (connect, send and receive together).
**
** Ownership: the caller owns body (cap bytes; the body is NUL-terminated, so at most
** cap-1 bytes). Errors: -1 with err set, the message naming HOST:PORT and what went wrong:
** "connection refused (nothing listens there)", "no answer within N ms", "not an HTTP
** answer", "HTTP status 404", "answer longer than N bytes", "HTTP status 401 (the server wants a user and password)".
*/
#ifndef FST_HTTP_H
#define FST_HTTP_H

#include "common/err.h"

#include <stddef.h>
#include <sys/socket.h>

typedef struct fst_http_addr {
    struct sockaddr_storage sa;
    socklen_t len;
    char name[300];         /* "HOST:PORT", for messages */
    char auth[160];         /* base64 of "user:password" for Basic authorization, or "" */
} fst_http_addr;

/* Send Basic authorization with every request (fst-capture --sample gives its private
** Hercules a random user and password, so that the port it opens, on every interface in
** Hercules 3.13, does not hand the machine to whoever connects). -1 when too long. */
int fst_http_set_auth(fst_http_addr *a, const char *user, const char *password, fst_err *err);

/* host: a numeric IPv4/IPv6 address or a name; port 1-65535. */
int fst_http_resolve(fst_http_addr *a, const char *host, unsigned port, fst_err *err);
/* 1 when the address is a loopback address (127/8, ::1). */
int fst_http_is_loopback(const fst_http_addr *a);
/* GET path; on success the body (after the header) is in body[0..*blen), NUL-terminated,
** and 0 is returned. Only status 200 is success. */
int fst_http_get(const fst_http_addr *a, const char *path, int timeout_ms, char *body, size_t cap, size_t *blen,
                 fst_err *err);

#endif
