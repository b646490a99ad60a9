// raw_sqlite_fetch DATABASE_DIR COUNT: the physical limit of reading whole contacts (issue 7).
// Hand-written SQL on SQLite's C API against the database the phonebook bench filled (Quarry's
// schema), no Quarry code: prepared once, bound and stepped per read, every value copied into
// a contact struct as the book does. Prints results.tsv rows (system "raw_sqlite"):
//   fetch_one     one whole contact by UID: one statement per field group (UID -> ID, contact
//                 row, affiliation + organization, emails, phones, addresses, IMs, URLs, notes,
//                 tags)
//   fetch_one_union  the same groups in one UNION ALL statement (one step loop)
//   fetch_one_own_txn, fetch_one_union_own_txn  the same, each read in its own read
//                 transaction as Quarry's reads are (the others share one)
//   fetch_10, fetch_100  the same per-group statements for each UID of the list
//   prefix_short  the key range of the bench's short name prefix, then each matching ID read
//   search_prefix_short  that key range alone
//   prefix_short_uids  the UIDs of that range's contacts (ContactBook::FindUids' answer)
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/phonebook/contact_generator.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Medium {
  std::string value, types;
};
struct RawContact {
  std::string uid, full_name, family, given, additional, prefix, suffix, nickname, birthday, photo,
      title, role, department, organization;
  std::vector<Medium> emails, phones, ims;
  std::vector<std::vector<std::string>> addresses;
  std::vector<std::string> urls, notes, tags;
};

void Check(int rc, sqlite3* db, const char* what) {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  std::fprintf(stderr, "raw_sqlite_fetch: %s: %s\n", what, sqlite3_errmsg(db));
  std::exit(1);
}

std::string Text(sqlite3_stmt* s, int column) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
  return text ? std::string(text, static_cast<size_t>(sqlite3_column_bytes(s, column)))
              : std::string();
}

// The field groups, each `WHERE <owner>.ID = ?1`.
constexpr const char* kUidSql = R"(SELECT ID FROM "nco:Contact" WHERE "nco:contactUID" = ?1)";
constexpr const char* kGroupSql[] = {
    R"(SELECT c."nco:contactUID", c."nco:fullname", p."nco:nameFamily", p."nco:nameGiven",
       p."nco:nameAdditional", p."nco:nameHonorificPrefix", p."nco:nameHonorificSuffix",
       c."nco:nickname", c."nco:birthDate", (SELECT Uri FROM Resource WHERE ID = c."nco:photo")
       FROM "nco:Contact" c JOIN "nco:PersonContact" p ON p.ID = c.ID WHERE c.ID = ?1)",
    R"(SELECT a."nco:title", a."nco:role", a."nco:department", o."nco:fullname"
       FROM "nco:PersonContact_nco:hasAffiliation" h JOIN "nco:Affiliation" a
       ON a.ID = h."nco:hasAffiliation" LEFT JOIN "nco:Contact" o ON o.ID = a."nco:org"
       WHERE h.ID = ?1)",
    R"(SELECT e."nco:emailAddress", m."qco:mediumTypes" FROM "nco:Role_nco:hasEmailAddress" h
       JOIN "nco:EmailAddress" e ON e.ID = h."nco:hasEmailAddress"
       JOIN "nco:ContactMedium" m ON m.ID = e.ID WHERE h.ID = ?1)",
    R"(SELECT e."nco:phoneNumber", m."qco:mediumTypes" FROM "nco:Role_nco:hasPhoneNumber" h
       JOIN "nco:PhoneNumber" e ON e.ID = h."nco:hasPhoneNumber"
       JOIN "nco:ContactMedium" m ON m.ID = e.ID WHERE h.ID = ?1)",
    R"(SELECT a."nco:pobox", a."nco:extendedAddress", a."nco:streetAddress", a."nco:locality",
       a."nco:region", a."nco:postalcode", a."nco:country", m."qco:mediumTypes"
       FROM "nco:Role_nco:hasPostalAddress" h JOIN "nco:PostalAddress" a
       ON a.ID = h."nco:hasPostalAddress" JOIN "nco:ContactMedium" m ON m.ID = a.ID
       WHERE h.ID = ?1)",
    R"(SELECT i."nco:imProtocol", i."nco:imID" FROM "nco:Role_nco:hasIMAddress" h
       JOIN "nco:IMAddress" i ON i.ID = h."nco:hasIMAddress" WHERE h.ID = ?1)",
    R"(SELECT r.Uri FROM "nco:Role_nco:url" h JOIN Resource r ON r.ID = h."nco:url"
       WHERE h.ID = ?1)",
    R"(SELECT "nco:note" FROM "nco:Contact_nco:note" WHERE ID = ?1)",
    R"(SELECT t."nao:prefLabel" FROM "rdfs:Resource_nao:hasTag" h JOIN "nao:Tag" t
       ON t.ID = h."nao:hasTag" WHERE h.ID = ?1)",
};
constexpr size_t kGroups = sizeof(kGroupSql) / sizeof(kGroupSql[0]);
// The column of each group's owner (the contact's ID).
constexpr const char* kOwner[kGroups] = {"c.ID", "h.ID", "h.ID", "h.ID", "h.ID",
                                         "h.ID", "h.ID", "ID",   "h.ID"};

class Reader {
 public:
  explicit Reader(sqlite3* db) : db_(db) {
    Check(sqlite3_prepare_v3(db, kUidSql, -1, SQLITE_PREPARE_PERSISTENT, &uid_, nullptr), db,
          "prepare uid");
    for (size_t g = 0; g < kGroups; ++g) {
      Check(
          sqlite3_prepare_v3(db, kGroupSql[g], -1, SQLITE_PREPARE_PERSISTENT, &groups_[g], nullptr),
          db, kGroupSql[g]);
    }
    std::string all;
    for (size_t g = 0; g < kGroups; ++g) {
      // Each group padded to 10 columns plus its number, for one UNION ALL.
      std::string select = kGroupSql[g];
      const int columns = ColumnCount(groups_[g]);
      std::string pad = std::to_string(g);
      for (int c = columns; c < 10; ++c) pad += ", NULL";
      select.replace(select.find("SELECT ") + 7, 0, pad + ", ");
      all += (g == 0 ? "" : " UNION ALL ") + select;
    }
    Check(sqlite3_prepare_v3(db, all.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &union_, nullptr), db,
          "prepare union");
  }
  ~Reader() {
    sqlite3_finalize(uid_);
    sqlite3_finalize(union_);
    for (auto* s : groups_) sqlite3_finalize(s);
  }

  int64_t IdOf(const std::string& uid) {
    sqlite3_bind_text(uid_, 1, uid.data(), static_cast<int>(uid.size()), SQLITE_STATIC);
    int64_t id = 0;
    if (sqlite3_step(uid_) == SQLITE_ROW) id = sqlite3_column_int64(uid_, 0);
    sqlite3_reset(uid_);
    return id;
  }

  bool Read(int64_t id, RawContact& c) {
    bool found = false;
    for (size_t g = 0; g < kGroups; ++g) {
      sqlite3_stmt* s = groups_[g];
      sqlite3_bind_int64(s, 1, id);
      while (sqlite3_step(s) == SQLITE_ROW) {
        found = true;
        Row(g, s, 0, c);
      }
      sqlite3_reset(s);
    }
    return found;
  }

  bool ReadUnion(int64_t id, RawContact& c) {
    bool found = false;
    sqlite3_bind_int64(union_, 1, id);
    while (sqlite3_step(union_) == SQLITE_ROW) {
      found = true;
      Row(static_cast<size_t>(sqlite3_column_int(union_, 0)), union_, 1, c);
    }
    sqlite3_reset(union_);
    return found;
  }

 public:
  static int ColumnCount(sqlite3_stmt* s) { return sqlite3_column_count(s); }

  static void Row(size_t group, sqlite3_stmt* s, int base, RawContact& c) {
    auto t = [&](int column) { return Text(s, base + column); };
    switch (group) {
      case 0:
        c.uid = t(0), c.full_name = t(1), c.family = t(2), c.given = t(3), c.additional = t(4);
        c.prefix = t(5), c.suffix = t(6), c.nickname = t(7), c.birthday = t(8), c.photo = t(9);
        break;
      case 1:
        c.title = t(0), c.role = t(1), c.department = t(2), c.organization = t(3);
        break;
      case 2:
        c.emails.push_back({t(0), t(1)});
        break;
      case 3:
        c.phones.push_back({t(0), t(1)});
        break;
      case 4:
        c.addresses.push_back({t(0), t(1), t(2), t(3), t(4), t(5), t(6), t(7)});
        break;
      case 5:
        c.ims.push_back({t(0), t(1)});
        break;
      case 6:
        c.urls.push_back(t(0));
        break;
      case 7:
        c.notes.push_back(t(0));
        break;
      case 8:
        c.tags.push_back(t(0));
        break;
      default:
        break;
    }
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* uid_ = nullptr;
  sqlite3_stmt* union_ = nullptr;
  sqlite3_stmt* groups_[kGroups] = {};
};

double Time(int repeat, const std::function<size_t(int)>& body, size_t& results) {
  const auto start = Clock::now();
  for (int i = 0; i < repeat; ++i) results = body(i);
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / repeat;
}

void Row(uint32_t count, const char* op, double micros, size_t results) {
  std::printf("raw_sqlite\tdirect\t%u\t%s\t%.2f\tper query\t%zu\n", count, op, micros, results);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: raw_sqlite_fetch DATABASE_DIR COUNT\n");
    return 2;
  }
  const std::string file = std::string(argv[1]) + "/meta.db";
  const auto count = static_cast<uint32_t>(std::stoul(argv[2]));
  sqlite3* db = nullptr;
  Check(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), db, "open");
  {
    // Quarry's own connection settings (store/engine/sqlite/database.cpp).
    sqlite3_exec(db, "PRAGMA cache_size=-16384; PRAGMA mmap_size=268435456;", nullptr, nullptr,
                 nullptr);
    Reader reader(db);
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);  // one read snapshot, as a cursor has
    const uint32_t step = 7919;                            // the bench's UIDs
    std::vector<std::string> uids;
    for (uint32_t i = 0; i < 2000; ++i)
      uids.push_back(quarry::bench::GenerateContact(i * step % count).uid);
    size_t results = 0;
    // Warm the page cache the way the bench's earlier operations do.
    for (const auto& uid : uids) {
      RawContact c;
      reader.Read(reader.IdOf(uid), c);
    }
    double t = Time(
        200,
        [&](int i) {
          RawContact c;
          return size_t{reader.Read(reader.IdOf(uids[static_cast<size_t>(i)]), c)};
        },
        results);
    Row(count, "fetch_one", t, results);
    t = Time(
        200,
        [&](int i) {
          RawContact c;
          return size_t{reader.ReadUnion(reader.IdOf(uids[static_cast<size_t>(i)]), c)};
        },
        results);
    Row(count, "fetch_one_union", t, results);
    {
      // The rows above share one read transaction; Quarry's read opens its own (a cursor is
      // a snapshot), and in WAL mode beginning and ending one costs syscalls (two fcntl()
      // locks and an fstat(): ~7 us on the bench machine, issue 7): the same reads, each in
      // its own transaction (prepared BEGIN / COMMIT).
      sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
      sqlite3_stmt* begin = nullptr;
      sqlite3_stmt* commit = nullptr;
      Check(sqlite3_prepare_v2(db, "BEGIN", -1, &begin, nullptr), db, "prepare begin");
      Check(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, nullptr), db, "prepare commit");
      const auto in_transaction = [&](const std::function<size_t()>& read) {
        sqlite3_step(begin);
        sqlite3_reset(begin);
        const size_t n = read();
        sqlite3_step(commit);
        sqlite3_reset(commit);
        return n;
      };
      t = Time(
          200,
          [&](int i) {
            return in_transaction([&] {
              RawContact c;
              return size_t{reader.Read(reader.IdOf(uids[static_cast<size_t>(i)]), c)};
            });
          },
          results);
      Row(count, "fetch_one_own_txn", t, results);
      t = Time(
          200,
          [&](int i) {
            return in_transaction([&] {
              RawContact c;
              return size_t{reader.ReadUnion(reader.IdOf(uids[static_cast<size_t>(i)]), c)};
            });
          },
          results);
      Row(count, "fetch_one_union_own_txn", t, results);
      sqlite3_finalize(begin);
      sqlite3_finalize(commit);
      sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    }
    for (const size_t batch : {size_t{10}, size_t{100}}) {
      t = Time(
          20,
          [&](int r) {
            std::vector<RawContact> out(batch);
            size_t n = 0;
            for (size_t k = 0; k < batch; ++k)
              n += reader.Read(reader.IdOf(uids[r * batch + k]), out[k]);
            return n;
          },
          results);
      Row(count, batch == 10 ? "fetch_10" : "fetch_100", t, results);
    }
    // The bench's short prefix: the first two letters of contact count/2's family name.
    const std::string family = quarry::bench::FamilyName(count / 2);
    std::string low;
    for (const char ch : family.substr(0, 2)) low += static_cast<char>(std::tolower(ch));
    const std::string high = low + "\xf4\x8f\xbf\xbd";  // U+10FFFD
    sqlite3_stmt* search = nullptr;
    Check(sqlite3_prepare_v3(db,
                             R"(SELECT DISTINCT ID FROM "nco:PersonContact_qco:nameKey"
                                WHERE "qco:nameKey" >= ?1 AND "qco:nameKey" < ?2)",
                             -1, SQLITE_PREPARE_PERSISTENT, &search, nullptr),
          db, "prepare search");
    auto ids_of = [&] {
      std::vector<int64_t> ids;
      sqlite3_bind_text(search, 1, low.data(), static_cast<int>(low.size()), SQLITE_STATIC);
      sqlite3_bind_text(search, 2, high.data(), static_cast<int>(high.size()), SQLITE_STATIC);
      while (sqlite3_step(search) == SQLITE_ROW) ids.push_back(sqlite3_column_int64(search, 0));
      sqlite3_reset(search);
      return ids;
    };
    t = Time(
        20, [&](int) { return ids_of().size(); }, results);
    Row(count, "search_prefix_short", t, results);
    // The UIDs of that range (ContactBook::FindUids): each found ID's UID copied into a string.
    sqlite3_stmt* uids_of = nullptr;
    Check(sqlite3_prepare_v3(db,
                             R"(SELECT "nco:contactUID" FROM "nco:Contact" WHERE ID IN
                                (SELECT ID FROM "nco:PersonContact_qco:nameKey"
                                 WHERE "qco:nameKey" >= ?1 AND "qco:nameKey" < ?2))",
                             -1, SQLITE_PREPARE_PERSISTENT, &uids_of, nullptr),
          db, "prepare uids");
    t = Time(
        20,
        [&](int) {
          std::vector<std::string> uids;
          sqlite3_bind_text(uids_of, 1, low.data(), static_cast<int>(low.size()), SQLITE_STATIC);
          sqlite3_bind_text(uids_of, 2, high.data(), static_cast<int>(high.size()), SQLITE_STATIC);
          while (sqlite3_step(uids_of) == SQLITE_ROW) uids.push_back(Text(uids_of, 0));
          sqlite3_reset(uids_of);
          return uids.size();
        },
        results);
    Row(count, "prefix_short_uids", t, results);
    sqlite3_finalize(uids_of);
    t = Time(
        20,
        [&](int) {
          const auto ids = ids_of();
          std::vector<RawContact> out(ids.size());
          size_t n = 0;
          for (size_t k = 0; k < ids.size(); ++k) n += reader.Read(ids[k], out[k]);
          return n;
        },
        results);
    Row(count, "prefix_short", t, results);
    // The same, each group read once for all matches: `owner IN (the key range)`.
    std::vector<sqlite3_stmt*> joined;
    for (size_t g = 0; g < kGroups; ++g) {
      std::string sql = kGroupSql[g];
      sql.replace(7, 0, std::string(kOwner[g]) + ", ");
      sql.replace(sql.rfind("= ?1"), 4,
                  R"(IN (SELECT ID FROM "nco:PersonContact_qco:nameKey"
                     WHERE "qco:nameKey" >= ?1 AND "qco:nameKey" < ?2))");
      sqlite3_stmt* s = nullptr;
      Check(sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr), db,
            sql.c_str());
      joined.push_back(s);
    }
    t = Time(
        20,
        [&](int) {
          std::vector<RawContact> out;
          std::unordered_map<int64_t, size_t> at;
          for (size_t g = 0; g < joined.size(); ++g) {
            sqlite3_stmt* s = joined[g];
            sqlite3_bind_text(s, 1, low.data(), static_cast<int>(low.size()), SQLITE_STATIC);
            sqlite3_bind_text(s, 2, high.data(), static_cast<int>(high.size()), SQLITE_STATIC);
            while (sqlite3_step(s) == SQLITE_ROW) {
              const int64_t id = sqlite3_column_int64(s, 0);  // kOwner
              auto [slot, added] = at.try_emplace(id, out.size());
              if (added) out.emplace_back();
              Reader::Row(g, s, 1, out[slot->second]);
            }
            sqlite3_reset(s);
          }
          return out.size();
        },
        results);
    Row(count, "prefix_short_by_group", t, results);
    for (auto* s : joined) sqlite3_finalize(s);
    sqlite3_finalize(search);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  }
  sqlite3_close(db);
  return 0;
}
