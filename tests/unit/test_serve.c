/*
** test_serve.c
** The seat server's parts that need no network: tokens (128 random bits
** as 32 hex digits, fresh each time, compared whole), the rate limit's
** bucket, the page's file table (exact names only: nothing a request says
** reaches the file system) and the queue between a connection's thread and
** the console's. It reaches into serve's own header, hence
** CAIRN_FOLDER_serve. The server over HTTP is tests/serve/test_serve.py.
*/
#define CAIRN_FOLDER_serve 1
#include "testutil.h"
#include "serve_internal.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_tokens(void **state) {
    (void)state;
    char a[SERVE_TOKEN_HEX + 1], b[SERVE_TOKEN_HEX + 1];
    assert_int_equal(serve_token_new(a), 0);
    assert_int_equal(serve_token_new(b), 0);
    assert_int_equal(strlen(a), 32); /* 16 bytes, 2 hex digits each */
    assert_int_equal(strspn(a, "0123456789abcdef"), 32);
    assert_string_not_equal(a, b); /* two draws of 128 bits never meet */
    assert_true(serve_token_equal(a, 32, a));
    assert_false(serve_token_equal(b, 32, a));
    char c[SERVE_TOKEN_HEX + 1];
    memcpy(c, a, sizeof c);
    c[31] = c[31] == '0' ? '1' : '0'; /* the last digit off */
    assert_false(serve_token_equal(c, 32, a));
    c[31] = a[31];
    c[0] = c[0] == '0' ? '1' : '0'; /* the first digit off */
    assert_false(serve_token_equal(c, 32, a));
    assert_false(serve_token_equal(a, 31, a)); /* a prefix is no token */
    assert_false(serve_token_equal("", 0, a));
}

static void test_bucket(void **state) {
    (void)state;
    serve_bucket b = {0};
    /* a fresh bucket holds the burst: 3 pass at once, the 4th does not
    ** (at 0.001 a second, nothing refills within the test) */
    assert_true(serve_bucket_take(&b, 0.001, 3));
    assert_true(serve_bucket_take(&b, 0.001, 3));
    assert_true(serve_bucket_take(&b, 0.001, 3));
    assert_false(serve_bucket_take(&b, 0.001, 3));
    /* at 1000 a second, 20 ms refill it (capped at the burst) */
    serve_bucket f = {0};
    for (int i = 0; i < 3; i++) assert_true(serve_bucket_take(&f, 1000, 3));
    sleep_ms(20);
    for (int i = 0; i < 3; i++) assert_true(serve_bucket_take(&f, 1000, 3));
}

static void test_page_files(void **state) {
    (void)state;
    const serve_file *page = serve_page_file("");
    assert_non_null(page);
    assert_non_null(strstr(page->type, "text/html"));
    assert_non_null(strstr(page->body, "@BASE@/page.js")); /* the seat's own path is written in */
    assert_non_null(serve_page_file("page.js"));
    assert_non_null(serve_page_file("page.css"));
    const char *refused[] = {"../page.js", "./page.js", "page.js/", "/page.js", "page.JS", "page", "..",
                             "%2e%2e/page.js", "page.js%00", "serve_page.c", "../../etc/passwd"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) assert_null(serve_page_file(refused[i]));
}

/* A connection's thread: one state job, run through the queue. */
typedef struct asker {
    serve_queue *q;
    serve_job job;
    int rc;
} asker;

static void *ask_thread(void *p) {
    asker *a = p;
    a->rc = serve_queue_run(a->q, &a->job);
    return NULL;
}

static void test_queue(void **state) {
    (void)state;
    serve_queue q;
    assert_int_equal(serve_queue_init(&q), 0);
    asker a = {&q, {.kind = SERVE_JOB_STATE, .seat = 2}, -9};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, ask_thread, &a), 0);
    /* the console's side: woken by the pipe, takes the job, answers it */
    serve_job *job = NULL;
    for (int i = 0; i < 500 && !job; i++) { /* at most 5 s */
        job = serve_queue_next(&q);
        if (!job) sleep_ms(10);
    }
    assert_non_null(job);
    char byte;
    assert_int_equal(read(q.wake[0], &byte, 1), 1); /* one byte a job */
    assert_int_equal(job->seat, 2);
    strbuf_puts(&job->reply, "{}");
    job->status = 200;
    serve_queue_finish(&q, job);
    pthread_join(t, NULL);
    assert_int_equal(a.rc, 0);
    assert_string_equal(a.job.reply.s, "{}");
    strbuf_free(&a.job.reply);
    /* a closed queue takes nothing: the job is refused at once */
    q.closed = 1;
    asker b = {&q, {.kind = SERVE_JOB_ANSWER, .seat = 1}, -9};
    assert_int_equal(pthread_create(&t, NULL, ask_thread, &b), 0);
    pthread_join(t, NULL);
    assert_int_equal(b.rc, -1);
    assert_null(serve_queue_next(&q));
    serve_queue_destroy(&q);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_bucket),
        cmocka_unit_test(test_page_files),
        cmocka_unit_test(test_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
