//! Tests' runner for work on hostile depth: a thread with a small stack, on
//! which anything that recursed once per level of a deep value would
//! overflow.

/// The stack of [`on_a_small_stack`]: 256 KiB, far below the main thread's.
const SMALL_STACK_BYTES: usize = 256 * 1024;

/// Runs `work` on a thread with a 256 KiB stack and returns what it
/// returns; panics when the thread cannot start or `work` panics (a stack
/// overflow aborts the test run instead).
pub(crate) fn on_a_small_stack<R, F>(work: F) -> R
where
    R: Send + 'static,
    F: FnOnce() -> R + Send + 'static,
{
    std::thread::Builder::new()
        .stack_size(SMALL_STACK_BYTES)
        .spawn(work)
        .expect("a thread with a small stack starts")
        .join()
        .expect("the work on a small stack finishes")
}
