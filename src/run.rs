//! Run: the one worker pool. [`ordered`] hands inputs to `jobs` workers and gives their results
//! back in input order, with at most [`IN_FLIGHT_PER_JOB`] × jobs inputs in flight, so memory
//! stays bounded on a stream of any length and the output is the same for any number of jobs.
//! The calling thread is one of the workers: between inputs of its own it hands out inputs and
//! passes on the results, so `jobs` threads run, not one more that would be woken for each
//! result. Each worker keeps a state of its own for the whole run (compiled rules, caches:
//! sxd-xpath's compiled XPaths are not thread-safe, so they cannot be shared).
//!
//! Fetching, `apply` and the bench all run here. rayon's pool does not fit: it neither keeps a
//! per-worker state nor streams an unbounded input in order with bounded memory.

use crate::{Error, Result};
use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::channel;
use std::sync::{Condvar, Mutex, MutexGuard};

/// Inputs in flight per job (queued, being worked on, or done but not yet handed back).
pub const IN_FLIGHT_PER_JOB: usize = 16;

/// Most workers a run starts, whatever `jobs` asks: more would only take turns on the cores
/// (and a thread each costs its stack).
pub const MAX_JOBS: usize = 256;

/// The number of cores, the default for `jobs`.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Run `work` on every input with `jobs` workers (each with its own `state()`; at most
/// [`MAX_JOBS`], and fewer when the system gives no more threads), and hand each result to
/// `put` in input order. Returns how many inputs there were.
///
/// # Errors
/// The first error `put` returns (the run stops there); [`Error::Internal`] when `work`
/// panicked (a bug), naming the input's position.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// let n = forest::run::ordered(1..=5, 2, || 10, |ten, i| i * *ten, |r| {
///     out.push(r);
///     Ok::<(), forest::Error>(())
/// })?;
/// assert_eq!((n, out), (5, vec![10, 20, 30, 40, 50]));
/// # Ok::<(), forest::Error>(())
/// ```
pub fn ordered<I, T, S, E>(
    inputs: impl IntoIterator<Item = I>,
    jobs: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, I) -> T + Sync,
    put: impl FnMut(T) -> std::result::Result<(), E>,
) -> std::result::Result<usize, E>
where
    I: Send,
    T: Send,
    E: From<Error>,
{
    ordered_within(inputs, jobs, jobs.saturating_mul(IN_FLIGHT_PER_JOB), state, work, put)
}

/// As [`ordered`], with at most `max_in_flight` inputs in flight (at least `jobs`): for
/// results so large that a few per job is all memory should hold.
///
/// # Errors
/// As [`ordered`].
pub fn ordered_within<I, T, S, E>(
    inputs: impl IntoIterator<Item = I>,
    jobs: usize,
    max_in_flight: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, I) -> T + Sync,
    mut put: impl FnMut(T) -> std::result::Result<(), E>,
) -> std::result::Result<usize, E>
where
    I: Send,
    T: Send,
    E: From<Error>,
{
    let jobs = jobs.min(MAX_JOBS);
    let panicked = |i: usize| E::from(Error::Internal(format!("extraction panicked on input {}", i + 1)));
    // One input's result, or `None` when the work on it panicked (a bug: the run reports it).
    let attempt = |s: &mut S, input: I| catch_unwind(AssertUnwindSafe(|| work(s, input))).ok();
    if jobs <= 1 {
        let mut s = state();
        let mut n = 0;
        for input in inputs {
            let done = attempt(&mut s, input).ok_or_else(|| panicked(n))?;
            put(done)?;
            n += 1;
        }
        return Ok(n);
    }
    let max_in_flight = max_in_flight.max(jobs);
    let tasks = Tasks::new();
    // `None`: the work on that input panicked.
    let (done_tx, done_rx) = channel::<(usize, Option<T>)>();
    let (state, attempt) = (&state, &attempt);
    std::thread::scope(|scope| {
        // Workers stop once the tasks run out, or at once after a failure, and after a panic
        // of `put` or of the inputs too: the queue is closed on every way out of the run, so
        // no worker waits forever for a task while the scope waits for the worker.
        let _closing = Closing(&tasks);
        // The calling thread is one of the `jobs`: it hands out inputs, works on them too, and
        // writes the results, so no thread waits to be woken for each result while the others
        // work (on two cores, a third thread would take turns with the workers).
        for _ in 1..jobs {
            let (tasks, done_tx) = (&tasks, done_tx.clone());
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut s = state();
                loop {
                    let Some((i, input)) = tasks.next() else { break };
                    if done_tx.send((i, attempt(&mut s, input))).is_err() {
                        break;
                    }
                }
            });
            // A system out of threads runs the inputs with the workers it gave.
            if worker.is_err() {
                break;
            }
        }
        drop(done_tx);
        // The calling thread's own state, made while the workers make theirs.
        let mut own = state();
        let mut inputs = inputs.into_iter().fuse();
        let mut waiting: BTreeMap<usize, Option<T>> = BTreeMap::new();
        let (mut sent, mut written) = (0usize, 0usize);
        let result = loop {
            while sent - written < max_in_flight {
                let Some(input) = inputs.next() else { break };
                tasks.push((sent, input));
                sent += 1;
            }
            if written == sent {
                break Ok(sent);
            }
            // The results ready, else one input worked on here, else a wait for a result.
            let ready = done_rx.try_recv().ok();
            let task = if ready.is_none() { tasks.take() } else { None };
            let (i, done) = match (ready, task) {
                (Some(ready), _) => ready,
                (None, Some((i, input))) => (i, attempt(&mut own, input)),
                // Each worker answers every task it takes: none answers only when all are gone.
                (None, None) => match done_rx.recv() {
                    Ok(ready) => ready,
                    Err(_) => break Err(E::from(Error::Internal(format!("the workers stopped with {} inputs unanswered", sent - written)))),
                },
            };
            waiting.insert(i, done);
            let mut failed = None;
            while let Some(done) = waiting.remove(&written) {
                let outcome = match done {
                    Some(done) => put(done),
                    None => Err(panicked(written)),
                };
                written += 1;
                if let Err(e) = outcome {
                    failed = Some(e);
                    break;
                }
            }
            if let Some(e) = failed {
                break Err(e);
            }
        };
        result
    })
}

/// Closes the [`Tasks`] queue when dropped.
struct Closing<'a, I>(&'a Tasks<I>);

impl<I> Drop for Closing<'_, I> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The inputs waiting for a thread: a queue no thread holds while it waits (a worker waits on
/// the condition variable; the calling thread only takes what is there).
struct Tasks<I> {
    /// The queue, and whether more inputs may come.
    queue: Mutex<(VecDeque<(usize, I)>, bool)>,
    more: Condvar,
}

impl<I> Tasks<I> {
    fn new() -> Tasks<I> {
        Tasks { queue: Mutex::new((VecDeque::new(), true)), more: Condvar::new() }
    }

    /// The queue (no code panics while holding it, so a poisoned lock still holds a sound queue).
    fn lock(&self) -> MutexGuard<'_, (VecDeque<(usize, I)>, bool)> {
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn push(&self, task: (usize, I)) {
        self.lock().0.push_back(task);
        self.more.notify_one();
    }

    /// The next input, if one is waiting.
    fn take(&self) -> Option<(usize, I)> {
        self.lock().0.pop_front()
    }

    /// The next input, waiting for one; `None` once the queue is closed and empty.
    fn next(&self) -> Option<(usize, I)> {
        let mut q = self.lock();
        loop {
            if let Some(task) = q.0.pop_front() {
                return Some(task);
            }
            if !q.1 {
                return None;
            }
            q = self.more.wait(q).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// No more inputs: waiting workers stop, and the inputs not taken are dropped.
    fn close(&self) {
        let mut q = self.lock();
        q.1 = false;
        q.0.clear();
        drop(q);
        self.more.notify_all();
    }
}

/// [`ordered`] collecting the results in a `Vec`, in input order.
pub fn collect<I: Send, T: Send, S>(
    inputs: impl IntoIterator<Item = I>,
    jobs: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, I) -> T + Sync,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    ordered(inputs, jobs, state, work, |r| {
        out.push(r);
        Ok::<(), Error>(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order_for_any_jobs() {
        for jobs in [1, 2, 3, 8] {
            let out = collect(0..500u64, jobs, || (), |_, i| {
                // Uneven work, so workers finish out of order.
                std::thread::sleep(std::time::Duration::from_micros((i * 7919) % 300));
                i * 2
            })
            .unwrap();
            assert_eq!(out, (0..500).map(|i| i * 2).collect::<Vec<_>>(), "jobs {jobs}");
        }
    }

    #[test]
    fn the_calling_thread_is_one_of_the_jobs() {
        let caller = std::thread::current().id();
        for jobs in [1, 2, 3] {
            let threads = collect(0..200u64, jobs, || (), |_, i| {
                std::thread::sleep(std::time::Duration::from_micros(i % 50));
                std::thread::current().id()
            })
            .unwrap();
            let distinct: std::collections::HashSet<_> = threads.iter().collect();
            assert!(distinct.len() <= jobs, "jobs {jobs}: {} threads worked", distinct.len());
            if jobs == 1 {
                assert!(threads.iter().all(|t| *t == caller));
            }
        }
        // With two jobs, both the caller and its one worker take inputs.
        let threads = collect(0..200u64, 2, || (), |_, _| {
            std::thread::sleep(std::time::Duration::from_micros(200));
            std::thread::current().id()
        })
        .unwrap();
        assert!(threads.contains(&caller) && threads.iter().any(|t| *t != caller));
    }

    #[test]
    fn a_failing_put_stops_the_run_and_a_panic_is_an_error() {
        let mut seen = 0;
        let r = ordered(0..1000, 2, || (), |_, i| i, |i| {
            seen += 1;
            if i == 10 {
                Err(Error::Invalid("stop".into()))
            } else {
                Ok(())
            }
        });
        assert!(matches!(r, Err(Error::Invalid(_))) && seen == 11);
        for jobs in [1, 2] {
            let r = collect(0..50, jobs, || (), |_, i| if i == 7 { panic!("boom") } else { i });
            assert!(matches!(r, Err(Error::Internal(_))), "jobs {jobs}");
        }
    }

    #[test]
    fn a_panic_of_put_ends_the_run_instead_of_leaving_the_workers_waiting() {
        // A `put` that panics (the command line's did, writing to a stderr whose reader was
        // gone): the panic comes out of the run, to its caller, instead of leaving it hanging.
        for jobs in [1, 2, 4] {
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let run = catch_unwind(|| ordered(0..1000, jobs, || (), |_, i| i, |i| if i == 10 { panic!("put failed") } else { Ok::<(), Error>(()) }));
                let _ = tx.send(run.is_err());
            });
            assert_eq!(rx.recv_timeout(std::time::Duration::from_secs(60)), Ok(true), "jobs {jobs}");
        }
    }
}
