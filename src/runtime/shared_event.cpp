#include "runtime/shared_event.h"

#include <algorithm>
#include <string>

namespace metalcpu::rt {

SharedEventListener* SharedEventListener::shared() {
    static SharedEventListener* const listener = [] {
        auto* made = static_cast<SharedEventListener*>(ns::make<SharedEventListener>());
        made->makeImmortal();
        return made;
    }();
    return listener;
}

SharedEventListener::~SharedEventListener() {
    {
        std::lock_guard lock(worker_->mutex);
        worker_->stopping = true;
    }
    worker_->wake.notify_all();
    if (!thread_.joinable()) return;
    // On its own thread (a notification dropped the last reference), the thread cannot join
    // itself: it finishes the queue on its own, holding the worker.
    if (thread_.get_id() == std::this_thread::get_id())
        thread_.detach();
    else
        thread_.join();
}

void SharedEventListener::post(std::function<void()> notification) {
    {
        std::lock_guard lock(worker_->mutex);
        worker_->queue.push_back(std::move(notification));
    }
    std::call_once(started_, [this] { thread_ = std::thread(run, worker_); });
    worker_->wake.notify_one();
}

void SharedEventListener::run(const std::shared_ptr<Worker>& worker) {
    std::unique_lock lock(worker->mutex);
    for (;;) {
        worker->wake.wait(lock, [&] { return worker->stopping || !worker->queue.empty(); });
        if (worker->queue.empty()) return; // stopping, and everything queued has run
        std::function<void()> next = std::move(worker->queue.front());
        worker->queue.pop_front();
        lock.unlock();
        next(); // never under the lock: it may post again or release the listener
        lock.lock();
    }
}

SharedEvent::~SharedEvent() {
    // Notifications that never became due are dropped with the event.
    for (Pending& pending : pending_) pending.listener->release();
}

SharedEvent* SharedEvent::of(MTL::Event* event) { return ns::implOf<SharedEvent>(event); }

std::string SharedEvent::description() const {
    return std::string("<") + className() + ": signaledValue " + std::to_string(value()) + ">";
}

void SharedEvent::signal(std::uint64_t value) {
    std::vector<Pending> due;
    {
        std::lock_guard lock(mutex_);
        value_ = value;
        auto notDue = std::partition(pending_.begin(), pending_.end(),
                                     [value](const Pending& pending) { return pending.value > value; });
        due.assign(std::make_move_iterator(notDue), std::make_move_iterator(pending_.end()));
        pending_.erase(notDue, pending_.end());
    }
    signaled_.notify_all();
    post(std::move(due), value);
}

std::uint64_t SharedEvent::value() const {
    std::lock_guard lock(mutex_);
    return value_;
}

void SharedEvent::waitFor(std::uint64_t value) {
    std::unique_lock lock(mutex_);
    signaled_.wait(lock, [&] { return value_ >= value; });
}

bool SharedEvent::waitFor(std::uint64_t value, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    return signaled_.wait_for(lock, limit, [&] { return value_ >= value; });
}

void SharedEvent::notify(SharedEventListener* listener, std::uint64_t value, Notification notification) {
    listener->retain();
    std::vector<Pending> due;
    std::uint64_t now = 0;
    {
        std::lock_guard lock(mutex_);
        now = value_;
        if (value_ >= value)
            due.push_back(Pending{listener, value, std::move(notification)});
        else
            pending_.push_back(Pending{listener, value, std::move(notification)});
    }
    post(std::move(due), now);
}

void SharedEvent::post(std::vector<Pending> due, std::uint64_t value) {
    for (Pending& pending : due) {
        retain(); // the event lives until its notification has run
        pending.listener->post([this, value, notification = std::move(pending.notification)] {
            notification(this, value);
            release();
        });
        pending.listener->release();
    }
}

} // namespace metalcpu::rt
