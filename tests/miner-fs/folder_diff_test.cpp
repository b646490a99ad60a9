#include <doctest/doctest.h>

#include <algorithm>

#include "miner-fs/file_uri.h"
#include "miner-fs/folder_diff.h"

namespace quarry::miner {
namespace {

const KnownChildren kKnown = {
    {"a.txt", {"urn:a", 100, 10, EntryKind::kFile}},
    {"b.txt", {"urn:b", 100, 10, EntryKind::kFile}},
    {"sub", {"urn:sub", 100, 4096, EntryKind::kFolder}},
};

std::vector<DiskChild> Unchanged() {
  return {{"a.txt", EntryKind::kFile, 100, 10}, {"b.txt", EntryKind::kFile, 100, 10},
          {"sub", EntryKind::kFolder, 100, 4096}};
}

TEST_CASE("DiffFolder: nothing changed means nothing to write") {
  const std::vector<DiskChild> disk = Unchanged();
  const FolderChanges changes = DiffFolder(kKnown, disk);
  CHECK_FALSE(changes.has_writes());
  REQUIRE(changes.descend.size() == 1);
  CHECK(changes.descend[0].second->iri == "urn:sub");
}

TEST_CASE("DiffFolder: created, changed and deleted") {
  std::vector<DiskChild> disk = Unchanged();
  SUBCASE("created") {
    disk.push_back({"new.txt", EntryKind::kFile, 5, 1});
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.created.size() == 1);
    CHECK(changes.created[0]->name == "new.txt");
    CHECK(changes.changed.empty());
    CHECK(changes.deleted.empty());
  }
  SUBCASE("mtime moved") {
    disk[0].mtime_us = 200;
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.changed.size() == 1);
    CHECK(changes.changed[0].second->iri == "urn:a");
  }
  SUBCASE("size changed, same mtime") {
    disk[1].size = 11;
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.changed.size() == 1);
    CHECK(changes.changed[0].second->iri == "urn:b");
  }
  SUBCASE("a folder's size is not a change") {
    disk[2].size = 8192;
    CHECK_FALSE(DiffFolder(kKnown, disk).has_writes());
  }
  SUBCASE("deleted") {
    disk.erase(disk.begin());
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.deleted.size() == 1);
    CHECK(changes.deleted[0].first == "a.txt");
    CHECK(changes.deleted[0].second->iri == "urn:a");
  }
  SUBCASE("renamed within the folder: delete and create") {
    disk[0].name = "renamed.txt";
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.created.size() == 1);
    REQUIRE(changes.deleted.size() == 1);
    CHECK(changes.created[0]->name == "renamed.txt");
    CHECK(changes.deleted[0].first == "a.txt");
  }
  SUBCASE("a file replaced by a folder of the same name") {
    disk[0].kind = EntryKind::kFolder;
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.created.size() == 1);
    REQUIRE(changes.deleted.size() == 1);
    CHECK(changes.created[0]->kind == EntryKind::kFolder);
    CHECK(changes.descend.size() == 1);
  }
  SUBCASE("one deleted, one created and one changed at once") {
    disk.erase(disk.begin());                              // a.txt gone
    disk.push_back({"new.txt", EntryKind::kFile, 5, 1});  // as many children as before
    disk[0].mtime_us = 300;                                // b.txt changed
    const FolderChanges changes = DiffFolder(kKnown, disk);
    REQUIRE(changes.deleted.size() == 1);
    CHECK(changes.deleted[0].first == "a.txt");
    REQUIRE(changes.created.size() == 1);
    CHECK(changes.created[0]->name == "new.txt");
    REQUIRE(changes.changed.size() == 1);
    CHECK(changes.changed[0].second->iri == "urn:b");
  }
  SUBCASE("everything gone") {
    const FolderChanges changes = DiffFolder(kKnown, {});
    CHECK(changes.deleted.size() == 3);
  }
}

TEST_CASE("DiffFolder: a new folder has no known children") {
  const std::vector<DiskChild> disk = Unchanged();
  const FolderChanges changes = DiffFolder({}, disk);
  CHECK(changes.created.size() == 3);
  CHECK(changes.descend.empty());
}

TEST_CASE("FileUri: percent-encodes any bytes like GLib") {
  CHECK(FileUri("/home/a b/#1 100%?.txt") == "file:///home/a%20b/%231%20100%25%3F.txt");
  CHECK(FileUri("/x/Übersicht/日本") == "file:///x/%C3%9Cbersicht/%E6%97%A5%E6%9C%AC");
  CHECK(FileUri("/x/Q&A (copy)+it's=@:;,$!*~") == "file:///x/Q&A%20(copy)+it's=@:;,$!*~");
  CHECK(FileUri(std::string("/x/bad\xff\x01name")) == "file:///x/bad%FF%01name");
  CHECK(ChildUri("file:///x", "a b") == "file:///x/a%20b");
  CHECK(ChildUri("file:///", "a") == "file:///a");
  SUBCASE("round trip") {
    const std::string path = std::string("/x/ü \"q\"\\\xfe%41");
    CHECK(FileUriToPath(FileUri(path)) == std::optional(path));
  }
  CHECK(FileUriToPath("http://x/") == std::nullopt);
  CHECK(FileUriToPath("file:///a%4") == std::nullopt);
  CHECK(FileUriToPath("file:///a%zz") == std::nullopt);
}

TEST_CASE("SparqlString escapes quotes, backslashes and line breaks") {
  CHECK(SparqlString("a\"b\\c\nd\te\r") == "\"a\\\"b\\\\c\\nd\\te\\r\"");
}

}  // namespace
}  // namespace quarry::miner
