// phonebook_bench (issue 7): the address-book benchmark of the seed, on Quarry.
//   phonebook_bench --count N --database DIR --path embedded   the engine in this process
//   phonebook_bench --count N --database DIR --path store      quarry-store on the session bus
//                   (saves through it; reads through the FD stream, plain D-Bus, and Direct)
//   phonebook_bench --count N --database DIR --path direct     reads only, through
//                   Connection::Direct (read-only), of a book another run saved into DIR (e.g.
//                   `--path embedded`): the Direct reader alone, for profiling
//   phonebook_bench --count N --json FILE                      the contacts as JSON (Tracker)
//   --ops LIST   only these operations (comma-separated; "fetch" means every fetch_*,
//                "email" also email_uids …); the batch save that fills the book always runs
//   --filled     DIR already holds the N contacts (embedded): no save, reads only (profiling)
//   --warm       run each prepared read once before its clock starts (steady state: the
//                shapes compiled); without it the first run's compile is in the average
//   --no-records the book without qco:record (ContactBookOptions): saves write only the nco
//                triples and keys, reads read the nco data (the route before records)
//   --no-stream  batch saves as one BatchSparqlUpdate, not streamed (ContactBookOptions)
//   --store-order LIST  the store path's read phases in this order (default auto,fd,dbus)
//   --latencies  fetch_one's calls one by one on stderr: min / median / p90 / max, the three
//                slowest calls by index, and each phase's wall-clock start and end (to line
//                up with a trace of quarry-store)
// Prints TSV rows: system, path, count, operation, microseconds per unit, unit, results.
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"
#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_sparql.h"
#include "store/common/sparql_quote.h"

namespace quarry::bench {
namespace {

using Clock = std::chrono::steady_clock;
using contacts::ContactBook;
using contacts::ContactFilter;

struct Options {
  uint32_t count = 50;
  std::string database;
  std::string path = "embedded";
  std::string json;
  std::vector<std::string> ops;  // empty: every operation
  bool filled = false;
  bool warm = false;
  bool records = true;  // --no-records: books without qco:record (written and read from nco)
  bool stream = true;   // --no-stream: batch saves as one Batch (ContactBookOptions)
  std::vector<std::string> store_order{"auto", "fd", "dbus"};  // --store-order
  bool latencies = false;  // --latencies: fetch_one per call, on stderr
};

// The comma-separated items of `list`, empty ones dropped.
std::vector<std::string> SplitList(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = std::min(list.find(','), list.size());
    if (comma > 0) out.emplace_back(list.substr(0, comma));
    list.remove_prefix(std::min(comma + 1, list.size()));
  }
  return out;
}

// Whether `op` was asked for: by name, or by the part before its first '_' ("fetch").
bool Wanted(const Options& o, std::string_view op) {
  if (o.ops.empty()) return true;
  for (const std::string& wanted : o.ops) {
    if (op == wanted || (op.size() > wanted.size() && op.starts_with(wanted) &&
                         op[wanted.size()] == '_')) {
      return true;
    }
  }
  return false;
}

[[noreturn]] void Fail(std::string_view what, const Error& error) {
  std::cerr << fmt::format("phonebook_bench: {}: {}\n", what, error.ToString());
  std::exit(1);
}

template <typename T>
T Must(Result<T> result, std::string_view what) {
  if (!result) Fail(what, result.error());
  return std::move(*result);
}
void Must(Result<void> result, std::string_view what) {
  if (!result) Fail(what, result.error());
}

// Runs `body` `repeat` times; microseconds per run. `warm`: once more before the clock starts.
// `each`, if given: every run's own microseconds (two clock reads per run more).
double Time(int repeat, const std::function<size_t(int)>& body, size_t& results,
            bool warm = false, std::vector<double>* each = nullptr) {
  if (warm) results = body(0);
  const auto start = Clock::now();
  for (int i = 0; i < repeat; ++i) {
    if (!each) {
      results = body(i);
      continue;
    }
    const auto call = Clock::now();
    results = body(i);
    each->push_back(std::chrono::duration<double, std::micro>(Clock::now() - call).count());
  }
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / repeat;
}

// Seconds since the epoch, to the microsecond: lines up with `strace -tt` and /proc samples.
std::string WallNow() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return fmt::format("{:.6f}", std::chrono::duration<double>(now).count());
}

// "min … median … p90 … max …" of `micros` (sorted in place), and before that the three
// slowest calls by index ("#i: µs"): a cold first call or a stall shows where it happened.
std::string Spread(std::vector<double>& micros) {
  if (micros.empty()) return "no calls";
  std::vector<size_t> order(micros.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const size_t shown = std::min<size_t>(3, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(shown), order.end(),
                    [&](size_t a, size_t b) { return micros[a] > micros[b]; });
  std::string slowest;
  for (size_t k = 0; k < shown; ++k) {
    slowest += fmt::format(" #{}: {:.0f}", order[k], micros[order[k]]);
  }
  std::sort(micros.begin(), micros.end());
  const auto at = [&](double q) {
    return micros[std::min(micros.size() - 1, static_cast<size_t>(q * micros.size()))];
  };
  return fmt::format("min {:.1f} median {:.1f} p90 {:.1f} max {:.1f} µs ({} calls; slowest{})",
                     micros.front(), at(0.5), at(0.9), micros.back(), micros.size(), slowest);
}

void Row(const Options& o, std::string_view path, std::string_view op, double micros,
         std::string_view unit, size_t results) {
  std::cout << fmt::format("quarry\t{}\t{}\t{}\t{:.2f}\t{}\t{}\n", path, o.count, op, micros, unit,
                           results);
}

std::vector<contacts::Contact> Generate(uint32_t begin, uint32_t end) {
  std::vector<contacts::Contact> out;
  // Sized once: grown by doubling, the 12,800 contacts' array (~400 bytes each) was held old
  // and new at once and left 16,384 slots, 4 MiB more at the client's save peak (issue 7).
  out.reserve(end > begin ? end - begin : 0);
  for (uint32_t i = begin; i < end; ++i) out.push_back(GenerateContact(i));
  return out;
}

void Saves(const Options& o, Connection& writer, std::string_view path) {
  ContactBook book(writer, {.records = o.records, .stream_saves = o.stream});
  const auto all = Generate(0, o.count);
  const auto start = Clock::now();
  Must(book.Save(all), "save batch");
  Row(o, path, "save_batch",
      std::chrono::duration<double, std::micro>(Clock::now() - start).count() / o.count,
      "per contact", o.count);
  if (!Wanted(o, "save_one")) return;
  // One by one: 100 more contacts, each in its own transaction, into the N-contact book.
  constexpr uint32_t kSingles = 100;
  size_t results = 0;
  const double each = Time(kSingles, [&](int i) {
    Must(book.Save({GenerateContact(o.count + 1000000 + static_cast<uint32_t>(i))}), "save one");
    return size_t{1};
  }, results);
  Row(o, path, "save_one", each, "per contact", kSingles);
}

std::string Uid(uint32_t i) { return GenerateContact(i).uid; }

size_t CountContacts(Connection& reader, const std::string& sparql) {
  auto cursor = Must(reader.Query(sparql), "unprepared query");
  return Must(contacts::ReadContacts(cursor), "unprepared rows").size();
}

// The filter's whole contacts in one text query, its key range written in every UNION branch
// (what the book sent before it prepared its shapes).
std::string WholeContactsText(const ContactFilter& filter) {
  return contacts::WithFilterLiterals(contacts::ContactsQuery(contacts::SearchSelector(filter.kind)),
                                      filter);
}

// The same reads as text queries with the UID or key written in (ContactBook before it
// prepared its shapes): a new text per value, so each run parses and translates again.
void Unprepared(const Options& o, Connection& reader, std::string_view path,
                const ContactFilter& filter) {
  size_t results = 0;
  double t = 0;
  if (Wanted(o, "fetch_one_unprepared")) {
    t = Time(
        200,
        [&](int i) {
          const std::string uid = Uid(static_cast<uint32_t>(i) * 7919 % o.count);
          return CountContacts(
              reader, contacts::ContactsQuery(fmt::format(
                          "VALUES ?uid {{ {} }} ?c nco:contactUID ?uid .", SparqlString(uid))));
        },
        results);
    Row(o, path, "fetch_one_unprepared", t, "per query", results);
  }
  if (!Wanted(o, "email_unprepared")) return;
  t = Time(
      20,
      [&](int i) {
        ContactFilter other = filter;  // a different address each run, as a user types
        if (i > 0)
          other.text = GenerateContact(static_cast<uint32_t>(i) * 7919 % o.count).emails[0].address;
        return CountContacts(reader, WholeContactsText(other));
      },
      results);
  Row(o, path, "email_unprepared", t, "per query", results);
}

void Reads(const Options& o, Connection& reader, std::string_view path) {
  ContactBook book(reader, {.records = o.records});
  size_t results = 0;
  const int repeat_all = o.count >= 3200 ? 3 : 10;
  double t = 0;
  if (Wanted(o, "fetch_all")) {
    t = Time(
        repeat_all, [&](int) { return Must(book.FetchAll(), "fetch all").size(); }, results,
        o.warm);
    Row(o, path, "fetch_all", t, "per query", results);
  }
  const uint32_t step = 7919;  // a prime: spreads the UIDs over the book
  if (Wanted(o, "fetch_one")) {
    // The UIDs are made before the clock starts: generating a contact costs microseconds.
    std::vector<std::vector<std::string>> singles;
    for (uint32_t i = 0; i < 200; ++i) singles.push_back({Uid(i * step % o.count)});
    std::vector<double> each;
    const std::string began = WallNow();
    t = Time(200, [&](int i) {
      return Must(book.FetchByUid(singles[static_cast<size_t>(i)]), "fetch one").size();
    }, results, o.warm, o.latencies ? &each : nullptr);
    Row(o, path, "fetch_one", t, "per query", results);
    if (o.latencies) {
      std::cerr << fmt::format("phonebook_bench: {} fetch_one {}–{}: {}\n", path, began,
                               WallNow(), Spread(each));
    }
  }
  for (const uint32_t batch : {10u, 100u}) {
    if (!Wanted(o, fmt::format("fetch_{}", batch))) continue;
    std::vector<std::vector<std::string>> lists(20);
    for (uint32_t r = 0; r < lists.size(); ++r) {
      for (uint32_t k = 0; k < batch; ++k) lists[r].push_back(Uid((r * batch + k) * step % o.count));
    }
    t = Time(static_cast<int>(lists.size()), [&](int r) {
      return Must(book.FetchByUid(lists[r]), "fetch batch").size();
    }, results, o.warm);
    Row(o, path, fmt::format("fetch_{}", batch), t, "per query", results);
  }
  const uint32_t target = o.count / 2;
  const contacts::Contact wanted = GenerateContact(target);
  const std::string short_prefix = contacts::FirstCodePoints(wanted.name.family, 2);
  const std::pair<std::string, ContactFilter> filters[] = {
      // By code points, not bytes: "Müller" must not be cut inside its "ü".
      {"prefix_short", {ContactFilter::Kind::kNamePrefix, short_prefix}},
      {"prefix_long", {ContactFilter::Kind::kNamePrefix, wanted.name.family}},
      {"suffix", {ContactFilter::Kind::kNameSuffix, wanted.name.family.substr(short_prefix.size())}},
      {"email", {ContactFilter::Kind::kEmail, wanted.emails[0].address}},
      {"phone_suffix", {ContactFilter::Kind::kPhoneSuffix,
                        "0" + wanted.phones[0].number.substr(4)}},  // +49 30 … dialled as 030 …
  };
  for (const auto& [name, filter] : filters) {
    if (!Wanted(o, name)) continue;
    t = Time(20, [&](int) { return Must(book.Find(filter), name).size(); }, results, o.warm);
    Row(o, path, name, t, "per query", results);
  }
  // <filter>_uids: the matching contacts' UIDs only (ContactBook::FindUids), none read.
  for (const auto& [name, filter] : filters) {
    const std::string op = name + "_uids";
    if (!Wanted(o, op)) continue;
    t = Time(20, [&](int) { return Must(book.FindUids(filter), op).size(); }, results, o.warm);
    Row(o, path, op, t, "per query", results);
  }
  // The key search alone (search_<filter>): the IDs of the matching contacts, none read.
  for (const auto& [name, filter] : filters) {
    const std::string op = "search_" + name;
    if (!Wanted(o, op)) continue;
    Statement search = Must(reader.Prepare(fmt::format("{}SELECT ?c WHERE {{ {} }}", contacts::kSparqlPrefixes,
                                                       contacts::SearchSelector(filter.kind))),
                            op);
    const contacts::KeyRange range = contacts::FilterRange(filter);
    t = Time(20, [&](int) {
      search.BindString("low", range.low);
      if (!range.high.empty()) search.BindString("high", range.high);
      Cursor cursor = Must(search.Execute(), op);
      size_t ids = 0;
      while (Must(cursor.Next(), op)) ++ids;
      return ids;
    }, results);
    Row(o, path, op, t, "per query", results);
  }
  Unprepared(o, reader, path, filters[3].second);
}

void Rss(const Options& o, std::string_view path) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  Row(o, path, "client_peak_rss_kib", static_cast<double>(usage.ru_maxrss), "KiB", 0);
}

void DumpJson(const Options& o) {
  nlohmann::json out = nlohmann::json::array();
  for (uint32_t i = 0; i < o.count; ++i) {
    const auto c = GenerateContact(i);
    nlohmann::json emails = nlohmann::json::array(), phones = nlohmann::json::array();
    for (const auto& e : c.emails) emails.push_back(e.address);
    for (const auto& p : c.phones) phones.push_back(p.number);
    out.push_back({{"uid", c.uid}, {"fn", c.full_name}, {"family", c.name.family},
                   {"given", c.name.given}, {"birthday", c.birthday}, {"emails", emails},
                   {"phones", phones}, {"org", c.organization}, {"title", c.title},
                   {"street", c.addresses[0].street}, {"city", c.addresses[0].locality},
                   {"postcode", c.addresses[0].postal_code}, {"notes", c.notes}});
  }
  std::ofstream(o.json) << out.dump();
}

Options Parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--latencies") {
      o.latencies = true;
      --i;
      continue;
    }
    if (flag == "--filled" || flag == "--warm") {
      (flag == "--warm" ? o.warm : o.filled) = true;
      --i;  // takes no value
      continue;
    }
    if (flag == "--no-records" || flag == "--no-stream") {
      (flag == "--no-records" ? o.records : o.stream) = false;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "phonebook_bench: " << flag << " needs a value\n";
      std::exit(2);
    }
    if (flag == "--count") o.count = static_cast<uint32_t>(std::stoul(argv[i + 1]));
    else if (flag == "--database") o.database = argv[i + 1];
    else if (flag == "--path") o.path = argv[i + 1];
    else if (flag == "--json") o.json = argv[i + 1];
    else if (flag == "--ops") o.ops = SplitList(argv[i + 1]);
    else if (flag == "--store-order") {
      o.store_order = SplitList(argv[i + 1]);
      for (const std::string& phase : o.store_order) {
        if (phase != "auto" && phase != "fd" && phase != "dbus") {
          std::cerr << "phonebook_bench: --store-order: unknown phase " << phase
                    << " (auto, fd or dbus)\n";
          std::exit(2);
        }
      }
    }
    else {
      std::cerr << "phonebook_bench: unknown option " << flag << "\n";
      std::exit(2);
    }
  }
  return o;
}

}  // namespace
}  // namespace quarry::bench

int main(int argc, char** argv) {
  using namespace quarry;
  using namespace quarry::bench;
  const Options o = Parse(argc, argv);
  if (!o.json.empty()) {
    DumpJson(o);
    return 0;
  }
  if (o.path == "direct") {
    auto direct = Must(Connection::Direct(o.database, QUARRY_ONTOLOGY_DIR), "direct");
    Reads(o, *direct, "direct");
    Rss(o, "direct");
    return 0;
  }
  if (o.path == "embedded") {
    auto connection = Must(Connection::Open({.database = o.database, .ontology = QUARRY_ONTOLOGY_DIR}), "open");
    if (!o.filled) Saves(o, *connection, "embedded");
    Reads(o, *connection, "embedded");
    Rss(o, "embedded");
    return 0;
  }
  auto bus = Must(Connection::Bus(), "bus");
  Saves(o, *bus, "store");
  if (o.latencies) std::cerr << fmt::format("phonebook_bench: save_batch ended {}\n", WallNow());
  for (const std::string& phase : o.store_order) {
    // auto, the default: small results inside the reply, larger ones streamed.
    bus->SetQueryTransport(phase == "auto" ? QueryTransport::kAuto
                           : phase == "fd" ? QueryTransport::kFdStream
                                           : QueryTransport::kPlainDBus);
    Reads(o, *bus, "store_" + phase);
  }
  auto direct = Must(Connection::Direct(o.database, QUARRY_ONTOLOGY_DIR), "direct");
  Reads(o, *direct, "direct");
  Rss(o, "store_client");
  return 0;
}
