/* Benchmarks/serve-tls.sh's client for new TLS connections per second: HOST PORT PATH CONNECTIONS SECONDS →
 * req/s, p99 ms, errors, requests (space-separated). Each thread, one connection at a time: connect,
 * a full handshake (a new SSL object, no session, no tickets, the cache off), one GET, the whole
 * response, close_notify, close. Built on BoringSSL or OpenSSL by serve-tls.sh. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static SSL_CTX *context;
static struct sockaddr_in address;
static char request[1024];
static int request_length;
static double deadline;

struct worker { pthread_t thread; long errors, count, capacity; double *latencies; };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int exchange(void) {  // 0: a whole 200 response came back
    int fd = socket(AF_INET, SOCK_STREAM, 0), on = 1, result = -1;
    if (fd < 0) return -1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    SSL *ssl = SSL_new(context);  // a fresh SSL object and no SSL_set_session: a full handshake
    SSL_set_fd(ssl, fd);
    if (SSL_connect(ssl) == 1) {
        if (SSL_write(ssl, request, request_length) == request_length) {
            char buffer[65537];
            long have = 0, need = -1;
            while (have < (long)sizeof buffer - 1) {
                int n = SSL_read(ssl, buffer + have, (int)(sizeof buffer - 1 - have));
                if (n <= 0) break;
                have += n;
                if (need < 0) {
                    buffer[have] = 0;
                    char *end = strstr(buffer, "\r\n\r\n");
                    if (!end) continue;
                    *end = 0;
                    char *length = strcasestr(buffer, "\r\ncontent-length:");
                    int ok = strncmp(buffer, "HTTP/1.1 200 ", 13) == 0 && length;
                    *end = '\r';
                    if (!ok) break;
                    need = (end + 4 - buffer) + strtol(length + 17, NULL, 10);
                }
                if (have >= need) { result = 0; break; }
            }
        }
        SSL_shutdown(ssl);  // close_notify, without waiting for the server's
    }
    SSL_free(ssl);
    close(fd);
    return result;
}

static void *run(void *argument) {
    struct worker *worker = argument;
    for (;;) {
        double start = now();
        if (start >= deadline) break;
        int result = exchange();
        double end = now();
        if (end > deadline) break;  // only what completes inside the window counts
        if (result != 0) { worker->errors++; continue; }
        if (worker->count == worker->capacity) {
            worker->capacity = worker->capacity ? worker->capacity * 2 : 4096;
            worker->latencies = realloc(worker->latencies, (size_t)worker->capacity * sizeof(double));
            if (!worker->latencies) abort();
        }
        worker->latencies[worker->count++] = end - start;
    }
    return NULL;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s HOST PORT PATH CONNECTIONS SECONDS\n", argv[0]); return 2; }
    int threads = atoi(argv[4]);
    double seconds = atof(argv[5]);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)atoi(argv[2]));
    if (inet_pton(AF_INET, argv[1], &address.sin_addr) != 1) { fprintf(stderr, "not an IPv4 address: %s\n", argv[1]); return 2; }
    request_length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s:%s\r\n\r\n", argv[3], argv[1], argv[2]);
    context = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_verify(context, SSL_VERIFY_NONE, NULL);  // the same certificate on every server
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET);
    static const unsigned char alpn[] = "\x08http/1.1";
    SSL_CTX_set_alpn_protos(context, alpn, sizeof alpn - 1);
    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    deadline = now() + seconds;
    for (int i = 0; i < threads; i++) pthread_create(&workers[i].thread, NULL, run, &workers[i]);
    long errors = 0, count = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        errors += workers[i].errors;
        count += workers[i].count;
    }
    double *all = malloc((size_t)(count ? count : 1) * sizeof(double));
    long filled = 0;
    for (int i = 0; i < threads; i++) {
        if (workers[i].count) memcpy(all + filled, workers[i].latencies, (size_t)workers[i].count * sizeof(double));
        filled += workers[i].count;
    }
    qsort(all, (size_t)count, sizeof(double), compare);
    double p99 = count ? all[(long)((double)(count - 1) * 0.99)] * 1000 : 0;
    printf("%.0f %.3f %ld %ld\n", (double)count / seconds, p99, errors, count);
    return 0;
}
