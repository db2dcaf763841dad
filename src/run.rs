//! Run: the one worker pool. [`ordered`] hands inputs to `jobs` workers and gives their results
//! back in input order, with at most [`IN_FLIGHT_PER_JOB`] × jobs inputs in flight, so memory
//! stays bounded on a stream of any length and the output is the same for any number of jobs.
//! Each worker keeps a state of its own for the whole run (compiled rules, caches: sxd-xpath's
//! compiled XPaths are not thread-safe, so they cannot be shared).
//!
//! Fetching, `apply` and the bench all run here. rayon's pool does not fit: it neither keeps a
//! per-worker state nor streams an unbounded input in order with bounded memory.

use crate::{Error, Result};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::Mutex;

/// Inputs in flight per job (queued, being worked on, or done but not yet handed back).
pub const IN_FLIGHT_PER_JOB: usize = 16;

/// The number of cores, the default for `jobs`.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Run `work` on every input with `jobs` workers (each with its own `state()`), and hand each
/// result to `put` in input order. Returns how many inputs there were.
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
    ordered_within(inputs, jobs, jobs * IN_FLIGHT_PER_JOB, state, work, put)
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
    let panicked = |i: usize| E::from(Error::Internal(format!("extraction panicked on input {}", i + 1)));
    if jobs <= 1 {
        let mut s = state();
        let mut n = 0;
        for input in inputs {
            let done = catch_unwind(AssertUnwindSafe(|| work(&mut s, input))).map_err(|_| panicked(n))?;
            put(done)?;
            n += 1;
        }
        return Ok(n);
    }
    let max_in_flight = max_in_flight.max(jobs);
    let (task_tx, task_rx) = sync_channel::<(usize, I)>(max_in_flight);
    let task_rx = Mutex::new(task_rx);
    // `None`: the work on that input panicked.
    let (done_tx, done_rx) = channel::<(usize, Option<T>)>();
    let (state, work) = (&state, &work);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (task_rx, done_tx) = (&task_rx, done_tx.clone());
            scope.spawn(move || {
                let mut s = state();
                loop {
                    let task = task_rx.lock().ok().and_then(|rx| rx.recv().ok());
                    let Some((i, input)) = task else { break };
                    let done = catch_unwind(AssertUnwindSafe(|| work(&mut s, input))).ok();
                    if done_tx.send((i, done)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        let mut inputs = inputs.into_iter().fuse();
        let mut waiting: BTreeMap<usize, Option<T>> = BTreeMap::new();
        let (mut sent, mut written) = (0usize, 0usize);
        let result = loop {
            while sent - written < max_in_flight {
                let Some(input) = inputs.next() else { break };
                if task_tx.send((sent, input)).is_err() {
                    break;
                }
                sent += 1;
            }
            if written == sent {
                break Ok(sent);
            }
            // Each worker answers every task it takes: none answers only when all are gone.
            let Ok((i, done)) = done_rx.recv() else {
                break Err(E::from(Error::Internal(format!("the workers stopped with {} inputs unanswered", sent - written))));
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
        // Workers stop once the tasks run out (or at once, after a failure).
        drop(task_tx);
        result
    })
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
}
