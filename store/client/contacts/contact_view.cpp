// ContactView: the initial result set (the book's reads: every field group once, or a filter's
// key search and its IDs), then GraphUpdated events applied by re-reading the contacts they
// name by ID. The mutex is held while the view loads, so an event that arrives during
// the load waits and is applied after it (the Notifier subscribes first: nothing is missed).
#include <map>
#include <mutex>
#include <set>

#include "quarry/contacts.h"
#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_sparql.h"
#include "store/client/contacts/contact_statements.h"

namespace quarry::contacts {

class ContactView::Impl {
 public:
  Impl(std::unique_ptr<Connection> reader, std::optional<ContactFilter> filter, Callback callback)
      : reader_(std::move(reader)), book_(*reader_), statements_(*reader_),
        filter_(std::move(filter)), callback_(std::move(callback)) {}

  // Caller holds mutex_.
  Result<void> LoadLocked() {
    ContactBook::Statements::RecordRows found;
    if (filter_ && !FilterRange(*filter_).low.empty()) {  // an empty key matches all: read all
      QUARRY_ASSIGN_OR_RETURN(found, statements_.FindRows(*filter_));
    } else {
      QUARRY_ASSIGN_OR_RETURN(found, statements_.FetchAllRows());
    }
    for (size_t i = 0; i < found.contacts.size(); ++i) {
      if (Wanted(found.contacts[i])) contacts_.emplace(found.ids[i], std::move(found.contacts[i]));
    }
    return {};
  }

  void OnEvent(const GraphUpdatedEvent& event) {
    std::set<int64_t> touched;
    for (const auto& triple : event.deletes) touched.insert(triple.subject);
    for (const auto& triple : event.inserts) touched.insert(triple.subject);
    std::lock_guard lock(mutex_);
    auto fetched = book_.FetchByResourceId({touched.begin(), touched.end()});
    if (!fetched) {
      ++failed_reads_;
      return;
    }
    ViewChanges changes;
    std::set<int64_t> still_there;
    for (auto& [id, contact] : *fetched) {
      if (!Wanted(contact)) continue;
      still_there.insert(id);
      auto [slot, inserted] = contacts_.try_emplace(id, contact);
      if (inserted) {
        changes.added.push_back(std::move(contact));
      } else if (!(slot->second == contact)) {
        slot->second = contact;
        changes.changed.push_back(std::move(contact));
      }
    }
    for (const int64_t id : touched) {
      const auto slot = contacts_.find(id);
      if (slot == contacts_.end() || still_there.contains(id)) continue;
      changes.removed.push_back(slot->second.uid);
      contacts_.erase(slot);
    }
    if (!changes.added.empty() || !changes.changed.empty() || !changes.removed.empty()) {
      callback_(changes);
    }
  }

  std::vector<Contact> Snapshot() const {
    std::lock_guard lock(mutex_);
    std::map<std::string, Contact> by_uid;
    for (const auto& [id, contact] : contacts_) by_uid.emplace(contact.uid, contact);
    std::vector<Contact> out;
    for (auto& [uid, contact] : by_uid) out.push_back(std::move(contact));
    return out;
  }

 private:
  bool Wanted(const Contact& contact) const { return !filter_ || Matches(contact, *filter_); }

  std::unique_ptr<Connection> reader_;
  ContactBook book_;
  ContactBook::Statements statements_;  // the initial load's reads
  std::optional<ContactFilter> filter_;
  Callback callback_;
  mutable std::mutex mutex_;
  std::map<int64_t, Contact> contacts_;  // by resource ID
  uint64_t failed_reads_ = 0;
  std::unique_ptr<Notifier> notifier_;
  friend class ContactView;
};

ContactView::ContactView(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ContactView::~ContactView() {
  if (impl_) impl_->notifier_.reset();  // stops callbacks before the rest goes
}

Result<std::unique_ptr<ContactView>> ContactView::Open(std::unique_ptr<Connection> reader,
                                                       std::optional<ContactFilter> filter,
                                                       Callback callback, const BusOptions& bus) {
  auto impl = std::make_unique<Impl>(std::move(reader), std::move(filter), std::move(callback));
  Impl* const raw = impl.get();
  {
    // Held across subscribing and loading: early events wait for the initial result set.
    std::lock_guard lock(raw->mutex_);
    QUARRY_ASSIGN_OR_RETURN(
        raw->notifier_,
        Notifier::Open({"http://tracker.api.gnome.org/ontology/v3/nco#PersonContact"},
                       [raw](const GraphUpdatedEvent& event) { raw->OnEvent(event); }, bus));
    QUARRY_TRY(raw->LoadLocked());
  }
  return std::unique_ptr<ContactView>(new ContactView(std::move(impl)));
}

std::vector<Contact> ContactView::contacts() const { return impl_->Snapshot(); }

}  // namespace quarry::contacts
