//! [`BufferPool`]: large read buffers handed from one reader to the next.

use std::sync::{Arc, Mutex, PoisonError};

/// Large read buffers (a Paddle chunk's: up to tens of MiB) that readers take when they
/// start and give back when they are dropped, so that scans one after another reuse memory
/// that is already mapped and initialised instead of faulting in and zeroing fresh pages
/// each time (and unmapping them after, which stops every core running the process's
/// threads to flush its TLB). A query engine keeps one per table; clones share it.
///
/// The pool holds at most `keep` buffers (the extra ones given back are freed): the memory
/// it holds is at most `keep` times the largest chunk read. Readers that read without a
/// pool allocate their buffers and free them when dropped.
///
/// ```
/// use std::io::Cursor;
/// use hadoop_record::framing::paddle::{PaddleReader, PaddleWriter};
/// use hadoop_record::framing::{BufferPool, FrameWrite};
/// let mut w = PaddleWriter::new(Vec::new());
/// w.write_payload(b"hello")?;
/// w.finish()?;
/// let file = w.into_inner()?;
/// let pool = BufferPool::new(4);
/// for _ in 0..2 {
///     let reader = PaddleReader::new(Cursor::new(&file)).with_buffers(&pool);
///     assert_eq!(reader.collect::<Result<Vec<_>, _>>()?, [b"hello".to_vec()]);
/// }
/// // The chunk buffer went back to the pool, and the second reader took it again.
/// assert_eq!(pool.held(), 1);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BufferPool {
    shared: Arc<Mutex<Vec<Vec<u8>>>>,
    keep: usize,
}

impl BufferPool {
    /// A pool that keeps at most `keep` buffers.
    pub fn new(keep: usize) -> Self {
        BufferPool {
            shared: Arc::new(Mutex::new(Vec::new())),
            keep,
        }
    }

    /// How many buffers the pool holds now.
    pub fn held(&self) -> usize {
        self.lock().len()
    }

    /// A buffer from the pool (its length is how much of it is initialised; the bytes are
    /// a previous reader's), or a new empty one.
    pub(crate) fn take(&self) -> Vec<u8> {
        self.lock().pop().unwrap_or_default()
    }

    /// Gives `buffer` back: kept if it holds memory and the pool has room, else freed.
    pub(crate) fn give(&self, buffer: Vec<u8>) {
        if buffer.capacity() == 0 {
            return;
        }
        let mut held = self.lock();
        if held.len() < self.keep {
            held.push(buffer);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        // A panic while the lock was held cannot leave the list half-changed.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_keep_buffers_that_hold_memory() {
        let pool = BufferPool::new(2);
        pool.give(Vec::new());
        assert_eq!(pool.held(), 0, "an empty vector holds no memory");
        for n in [10, 20, 30] {
            pool.give(vec![7; n]);
        }
        assert_eq!(pool.held(), 2);
        let shared = pool.clone();
        assert_eq!(shared.take(), vec![7; 20], "the last kept is taken first");
        assert_eq!(pool.held(), 1, "clones share the buffers");
        assert_eq!(pool.take(), vec![7; 10]);
        assert!(pool.take().is_empty(), "an empty pool gives a new vector");
    }
}
