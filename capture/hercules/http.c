/* capture/hercules/http.c — see http.h. */
#include "capture/hercules/http.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The longest whole answer (header and body) read: Hercules' PSW page is ~300 bytes. */
#define HTTP_MAX_ANSWER 16384

int fst_http_resolve(fst_http_addr *a, const char *host, unsigned port, fst_err *err)
{
    memset(a, 0, sizeof *a);
    if (port < 1 || port > 65535)
        return fst_errf(err, "%s:%u: not a TCP port", host, port);
    snprintf(a->name, sizeof a->name, "%s:%u", host, port);
    struct addrinfo hints = { 0 }, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    char ps[8];
    snprintf(ps, sizeof ps, "%u", port);
    int rc = getaddrinfo(host, ps, &hints, &res);
    if (rc || !res)
        return fst_errf(err, "%s: cannot resolve '%s': %s", a->name, host, rc ? gai_strerror(rc) : "no address");
    memcpy(&a->sa, res->ai_addr, res->ai_addrlen);
    a->len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

int fst_http_set_auth(fst_http_addr *a, const char *user, const char *password, fst_err *err)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char plain[100];
    int n = snprintf(plain, sizeof plain, "%s:%s", user, password);
    if (n < 0 || (size_t)n >= sizeof plain || ((size_t)n + 2) / 3 * 4 >= sizeof a->auth)
        return fst_errf(err, "%s: user and password too long", a->name);
    size_t k = 0;
    for (int i = 0; i < n; i += 3) {
        unsigned v = (unsigned)(unsigned char)plain[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)(unsigned char)plain[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)plain[i + 2];
        a->auth[k++] = b64[v >> 18 & 63];
        a->auth[k++] = b64[v >> 12 & 63];
        a->auth[k++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        a->auth[k++] = i + 2 < n ? b64[v & 63] : '=';
    }
    a->auth[k] = 0;
    return 0;
}

int fst_http_is_loopback(const fst_http_addr *a)
{
    if (a->sa.ss_family == AF_INET) {
        const struct sockaddr_in *s = (const struct sockaddr_in *)&a->sa;
        return (ntohl(s->sin_addr.s_addr) >> 24) == 127;
    }
    if (a->sa.ss_family == AF_INET6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)&a->sa;
        return IN6_IS_ADDR_LOOPBACK(&s->sin6_addr);
    }
    return 0;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for `ev` on fd until the deadline: 1 ready, 0 timed out, -1 error (errno). */
static int wait_fd(int fd, short ev, int64_t deadline)
{
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = { fd, ev, 0 };
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        return r < 0 ? -1 : r;
    }
}

/* The status code of an "HTTP/1.x NNN ..." status line, or -1. */
static int status_of(const char *ans, size_t n)
{
    if (n < 12 || memcmp(ans, "HTTP/1.", 7) || (ans[7] != '0' && ans[7] != '1') || ans[8] != ' ')
        return -1;
    int code = 0;
    for (int i = 9; i < 12; i++) {
        if (ans[i] < '0' || ans[i] > '9')
            return -1;
        code = code * 10 + (ans[i] - '0');
    }
    return code;
}

/* The start of the body: after the first empty line (LF LF or CRLF CRLF, mixed too). */
static const char *body_of(const char *ans, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (ans[i] != '\n')
            continue;
        if (ans[i + 1] == '\n')
            return ans + i + 2;
        if (ans[i + 1] == '\r' && i + 2 < n && ans[i + 2] == '\n')
            return ans + i + 3;
    }
    return NULL;
}

int fst_http_get(const fst_http_addr *a, const char *path, int timeout_ms, char *body, size_t cap, size_t *blen,
                 fst_err *err)
{
    int64_t deadline = now_ms() + timeout_ms;
    int fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return fst_errno(err, "%s: socket", a->name);
    int rc = -1;
    char *ans = fst_xmalloc(HTTP_MAX_ANSWER + 1);
    if (connect(fd, (const struct sockaddr *)&a->sa, a->len) < 0) {
        if (errno != EINPROGRESS) {
            if (errno == ECONNREFUSED)
                fst_errf(err, "%s: connection refused (nothing listens there)", a->name);
            else
                fst_errno(err, "%s: cannot connect", a->name);
            goto out;
        }
        int r = wait_fd(fd, POLLOUT, deadline);
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        if (r <= 0) {
            if (r == 0)
                fst_errf(err, "%s: no connection within %d ms", a->name, timeout_ms);
            else
                fst_errno(err, "%s: cannot connect", a->name);
            goto out;
        }
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0 || soerr) {
            errno = soerr;
            if (soerr == ECONNREFUSED)
                fst_errf(err, "%s: connection refused (nothing listens there)", a->name);
            else
                fst_errno(err, "%s: cannot connect", a->name);
            goto out;
        }
    }
    char req[600];
    int qn = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: %s\r\nUser-Agent: fst\r\n%s%s%s\r\n", path, a->name,
                      a->auth[0] ? "Authorization: Basic " : "", a->auth, a->auth[0] ? "\r\n" : "");
    if (qn < 0 || (size_t)qn >= sizeof req) {
        fst_errf(err, "%s: request too long", a->name);
        goto out;
    }
    for (size_t sent = 0; sent < (size_t)qn;) {
        ssize_t k = send(fd, req + sent, (size_t)qn - sent, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int r = wait_fd(fd, POLLOUT, deadline);
            if (r <= 0) {
                fst_errf(err, "%s: no answer within %d ms (sending)", a->name, timeout_ms);
                goto out;
            }
            continue;
        }
        if (k < 0) {
            fst_errno(err, "%s: cannot send", a->name);
            goto out;
        }
        sent += (size_t)k;
    }
    size_t n = 0;
    for (;;) {
        int r = wait_fd(fd, POLLIN, deadline);
        if (r < 0) {
            fst_errno(err, "%s: poll", a->name);
            goto out;
        }
        if (r == 0) {
            fst_errf(err, "%s: no whole answer within %d ms (%zu bytes came)", a->name, timeout_ms, n);
            goto out;
        }
        ssize_t k = recv(fd, ans + n, HTTP_MAX_ANSWER + 1 - n, 0);
        if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (k < 0) {
            if (errno == ECONNRESET)
                fst_errf(err, "%s: the server closed the connection without an answer (reset)", a->name);
            else
                fst_errno(err, "%s: cannot receive", a->name);
            goto out;
        }
        if (k == 0)
            break;
        n += (size_t)k;
        if (n > HTTP_MAX_ANSWER) {
            fst_errf(err, "%s: answer longer than %d bytes: not Hercules' PSW page", a->name, HTTP_MAX_ANSWER);
            goto out;
        }
    }
    ans[n] = 0;
    if (n == 0) {
        fst_errf(err, "%s: the server closed the connection without an answer", a->name);
        goto out;
    }
    int status = status_of(ans, n);
    if (status < 0) {
        fst_errf(err, "%s: not an HTTP answer (it begins '%.20s')", a->name, ans);
        for (char *c = err ? err->msg : NULL; c && *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7E)
                *c = '?';
        goto out;
    }
    if (status != 200) {
        fst_errf(err, "%s: HTTP status %d for %s%s", a->name, status, path,
                 status == 401 ? " (the server wants a user and password)" : "");
        goto out;
    }
    const char *b = body_of(ans, n);
    if (!b) {
        fst_errf(err, "%s: an HTTP answer with no end of header", a->name);
        goto out;
    }
    size_t bl = n - (size_t)(b - ans);
    if (bl + 1 > cap) {
        fst_errf(err, "%s: answer body of %zu bytes, longer than the %zu expected", a->name, bl, cap - 1);
        goto out;
    }
    memcpy(body, b, bl);
    body[bl] = 0;
    *blen = bl;
    rc = 0;
out:
    free(ans);
    close(fd);
    return rc;
}
