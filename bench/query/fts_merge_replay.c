// FTS5 merge replay (bench/query/README.md "FTS5 merges at idle", issue 5): the fts_view rows
// of an indexed Quarry database replayed into a fresh contentless FTS5 table (the store's
// tokenizer and writer pragmas) in 64-row transactions; then searches (W_*), the idle merge
// ('merge' N steps until nothing is left), the same searches (M_*). Standalone, not built by
// CMake:
//   gcc -O2 -g -o fts_merge_replay fts_merge_replay.c -lsqlite3
//   valgrind --tool=callgrind --instr-atstart=no ./fts_merge_replay SRC OUT 0 16 4 64 4
//   callgrind_annotate --inclusive=yes --threshold=100 callgrind.out.* | grep fts_merge_replay
// usage: fts_merge_replay SRC.db OUT.db automerge crisismerge usermerge mergeN [stride]
// (mergeN 0: no idle merge; stride k: only rows whose ID is a multiple of k). CPU seconds per
// phase go to stderr; REPS (default 5) runs of each search.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include <time.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
#define NCOL_MAX 64
typedef struct { sqlite3_int64 id; char* v[NCOL_MAX]; int len[NCOL_MAX]; } Row;
static Row* rows; static int nrows, ncol; static char cols[4096];
static sqlite3* db;
static void die(const char* w) { fprintf(stderr, "%s: %s\n", w, sqlite3_errmsg(db)); exit(1); }
static void exec(const char* sql) { char* e = 0; if (sqlite3_exec(db, sql, 0, 0, &e)) { fprintf(stderr, "%s: %s\n", sql, e); exit(1); } }
static void load(const char* src, int limit) {
  sqlite3* s; sqlite3_open_v2(src, &s, SQLITE_OPEN_READONLY, 0);
  sqlite3_stmt* st; sqlite3_prepare_v2(s, "SELECT name FROM pragma_table_info('fts5')", -1, &st, 0);
  char sel[8192] = "SELECT ID"; ncol = 0; cols[0] = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char* n = (const char*)sqlite3_column_text(st, 0);
    strcat(sel, ", \""); strcat(sel, n); strcat(sel, "\"");
    if (ncol) strcat(cols, ", ");
    strcat(cols, "\""); strcat(cols, n); strcat(cols, "\""); ncol++;
  }
  sqlite3_finalize(st);
  char q[9000]; snprintf(q, sizeof q, "%s FROM fts_view WHERE ID %% %d = 0 ORDER BY ID", sel, limit);
  if (sqlite3_prepare_v2(s, q, -1, &st, 0)) { fprintf(stderr, "%s\n", sqlite3_errmsg(s)); exit(1); }
  rows = calloc(50000, sizeof(Row));
  while (sqlite3_step(st) == SQLITE_ROW) {
    Row* r = &rows[nrows++]; r->id = sqlite3_column_int64(st, 0);
    for (int c = 0; c < ncol; c++) {
      if (sqlite3_column_type(st, c + 1) == SQLITE_NULL) { r->v[c] = 0; continue; }
      r->len[c] = sqlite3_column_bytes(st, c + 1);
      r->v[c] = malloc(r->len[c] + 1); memcpy(r->v[c], sqlite3_column_text(st, c + 1), r->len[c] + 1);
    }
  }
  sqlite3_finalize(st); sqlite3_close(s);
}
__attribute__((noinline)) void do_writes(void) {
  char sql[8192]; int n = snprintf(sql, sizeof sql, "INSERT INTO f(rowid, %s) VALUES (?1", cols);
  for (int c = 0; c < ncol; c++) n += snprintf(sql + n, sizeof sql - n, ", ?%d", c + 2);
  strcat(sql, ")");
  sqlite3_stmt* st; if (sqlite3_prepare_v2(db, sql, -1, &st, 0)) die("prep insert");
  for (int i = 0; i < nrows; i += 64) {
    exec("BEGIN");
    for (int j = i; j < i + 64 && j < nrows; j++) {
      sqlite3_bind_int64(st, 1, rows[j].id);
      for (int c = 0; c < ncol; c++) {
        if (rows[j].v[c]) sqlite3_bind_text(st, c + 2, rows[j].v[c], rows[j].len[c], SQLITE_STATIC);
        else sqlite3_bind_null(st, c + 2);
      }
      if (sqlite3_step(st) != SQLITE_DONE) die("insert");
      sqlite3_reset(st);
    }
    exec("COMMIT");
  }
  sqlite3_finalize(st);
}
static const char* queries[] = {"people", "besta", "\"fouwem\"", "year world", "\"the year\"", "bes*", "peo*", "the", 0};
static long long sink;
// Per-query functions per phase (W after writes, M after idle merge) so callgrind shows each.
#define QF(name, idx) __attribute__((noinline)) void name(int reps) { \
  sqlite3_stmt* top; sqlite3_prepare_v2(db, "SELECT rowid FROM f WHERE f MATCH ?1 ORDER BY rank LIMIT 20", -1, &top, 0); \
  for (int r = 0; r < reps; r++) { sqlite3_bind_text(top, 1, queries[idx], -1, SQLITE_STATIC); \
    while (sqlite3_step(top) == SQLITE_ROW) { sink += sqlite3_column_int64(top, 0); } \
    sqlite3_reset(top); } \
  sqlite3_finalize(top); }
#define QSET(P) QF(P##_people, 0) QF(P##_besta, 1) QF(P##_rare, 2) QF(P##_two, 3) QF(P##_phrase, 4) QF(P##_prefix_bes, 5) QF(P##_prefix_peo, 6) QF(P##_the, 7) \
  __attribute__((noinline)) void P##_all(int reps) { P##_people(reps); P##_besta(reps); P##_rare(reps); P##_two(reps); P##_phrase(reps); P##_prefix_bes(reps); P##_prefix_peo(reps); P##_the(reps); }
QSET(W) QSET(M)
static int segments(void) {
  sqlite3_stmt* st; sqlite3_prepare_v2(db, "SELECT count(DISTINCT segid) FROM f_idx", -1, &st, 0);
  sqlite3_step(st); int n = sqlite3_column_int(st, 0); sqlite3_finalize(st); return n;
}
__attribute__((noinline)) int do_idle_merge(int n) {
  char sql[128]; snprintf(sql, sizeof sql, "INSERT INTO f(f, rank) VALUES('merge', %d)", n);
  int steps = 0;
  for (;;) {
    const int before = sqlite3_total_changes(db);
    exec(sql); steps++;
    if (sqlite3_total_changes(db) - before < 2) break;
  }
  return steps;
}
int main(int argc, char** argv) {
  if (argc < 7) { fprintf(stderr, "usage\n"); return 2; }
  const int limit = argc > 7 ? atoi(argv[7]) : 1;  /* stride */
  load(argv[1], limit);
  const char* sufs[] = {"", "-wal", "-shm"}; for (int k = 0; k < 3; k++) { const char* suf = sufs[k]; char p[512]; snprintf(p, sizeof p, "%s%s", argv[2], suf); remove(p); }
  if (sqlite3_open(argv[2], &db)) die("open");
  exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA journal_size_limit=67108864; PRAGMA cache_size=-2048; PRAGMA wal_autocheckpoint=10000; PRAGMA temp_store=MEMORY;");
  char sql[9000];
  snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE f USING fts5(%s, content='', tokenize='unicode61 remove_diacritics 2')", cols); exec(sql);
  snprintf(sql, sizeof sql, "INSERT INTO f(f, rank) VALUES('automerge', %s); INSERT INTO f(f, rank) VALUES('crisismerge', %s); INSERT INTO f(f, rank) VALUES('usermerge', %s);", argv[3], argv[4], argv[5]); exec(sql);
  CALLGRIND_START_INSTRUMENTATION;
  double t0 = cpu();
  do_writes();
  double t_w = cpu() - t0;
  const int seg_w = segments();
  const int reps = getenv("REPS") ? atoi(getenv("REPS")) : 5;
  t0 = cpu(); W_all(reps); double t_qw = cpu() - t0; t0 = cpu();
  // The store's write mode after idle: automerge back to the default is not needed for the count.
  const int steps = atoi(argv[6]) ? do_idle_merge(atoi(argv[6])) : 0;
  double t_m = cpu() - t0;
  const int seg_m = segments();
  t0 = cpu(); M_all(reps); double t_qm = cpu() - t0;
  fprintf(stderr, "cpu: writes %.3f s, queries after writes %.3f s, idle merge %.3f s, queries after merge %.3f s\n", t_w, t_qw, t_m, t_qm);
  sqlite3_stmt* st; sqlite3_prepare_v2(db, "SELECT count(*) FROM f_data", -1, &st, 0); sqlite3_step(st);
  printf("rows %d cfg am=%s cm=%s um=%s mergeN=%s: segments after writes %d, merge steps %d, segments after merge %d, f_data %d, sink %lld\n",
         nrows, argv[3], argv[4], argv[5], argv[6], seg_w, steps, seg_m, sqlite3_column_int(st, 0), sink);
  sqlite3_finalize(st); sqlite3_close(db);
  return 0;
}
