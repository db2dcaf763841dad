//! Turns per host: at most `per_host` requests at once to one host, each starting at least
//! `delay` after the one before. A [`Turn`] is given back when it is dropped, so a request
//! that fails, or panics (the run reports the page and goes on), never keeps its host's slot
//! and leaves the other pages of that host waiting for good.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Per-host bookkeeping: requests running, and when the next may start.
#[derive(Default)]
struct Host {
    active: usize,
    next_at: Option<Instant>,
}

/// The turns of every host one fetcher asks.
pub(super) struct Turns {
    hosts: Mutex<HashMap<String, Host>>,
    freed: Condvar,
    per_host: usize,
    delay: Duration,
}

/// A request's turn on its host, until dropped.
pub(super) struct Turn<'a> {
    turns: &'a Turns,
    host: &'a str,
}

impl Turns {
    /// At most `per_host` requests at once to a host (at least one), `delay` apart.
    pub(super) fn new(per_host: usize, delay: Duration) -> Turns {
        Turns { hosts: Mutex::new(HashMap::new()), freed: Condvar::new(), per_host: per_host.max(1), delay }
    }

    /// Wait for a free slot on `host` and for its delay to pass.
    pub(super) fn take<'a>(&'a self, host: &'a str) -> Turn<'a> {
        let turn = Turn { turns: self, host };
        let Ok(mut hosts) = self.hosts.lock() else { return turn };
        loop {
            let now = Instant::now();
            let h = hosts.entry(host.to_string()).or_default();
            let wait = h.next_at.filter(|&t| t > now).map(|t| t - now);
            if h.active < self.per_host && wait.is_none() {
                h.active += 1;
                h.next_at = now.checked_add(self.delay);
                return turn;
            }
            let timeout = wait.unwrap_or(Duration::from_millis(100));
            hosts = match self.freed.wait_timeout(hosts, timeout) {
                Ok((g, _)) => g,
                Err(_) => return turn,
            };
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if let Ok(mut hosts) = self.turns.hosts.lock() {
            if let Some(h) = hosts.get_mut(self.host) {
                h.active = h.active.saturating_sub(1);
            }
        }
        self.turns.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_is_given_back_when_its_request_panics() {
        let turns = std::sync::Arc::new(Turns::new(1, Duration::ZERO));
        let t = turns.clone();
        assert!(std::thread::spawn(move || {
            let _turn = t.take("a.example");
            panic!("the request failed in a way nobody foresaw");
        })
        .join()
        .is_err());
        // The host's one slot is free again: the next request gets it (in bounded time).
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            drop(turns.take("a.example"));
            let _ = tx.send(());
        });
        assert!(rx.recv_timeout(Duration::from_secs(30)).is_ok(), "the slot was kept");
    }

    #[test]
    fn requests_to_one_host_keep_their_delay() {
        let turns = Turns::new(4, Duration::from_millis(50));
        let start = Instant::now();
        drop(turns.take("a.example"));
        drop(turns.take("b.example"));
        drop(turns.take("a.example"));
        assert!(start.elapsed() >= Duration::from_millis(50), "the same host waits its delay");
    }
}
