//! A container file's blocks as they are written: each block's records compressed in its
//! codec, then written in order after its count and length, with the sync marker.
//!
//! Compressing takes most of a deflate (or bzip2, xz, zstandard) file's time, and blocks are
//! compressed apart: so, where the machine has more than one core, blocks go to worker
//! threads (one per core, up to four) while the caller makes the next ones, and come back to
//! be written in their order.
//! The file is the same byte for byte (each block compressed alone, as on one thread); what
//! changes is the wall time. Written here as the codecs' crates compress one buffer at a time.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};

use crate::codec::AvroCodec;
use crate::container;
use crate::error::Result;

/// The most worker threads one file's blocks get: a dataset's files are written side by
/// side (one per partition, on each executor), and a few workers already keep up with
/// the records being made.
const MOST_WORKERS: usize = 4;

/// A block for a worker: its number in the file, its record count, its bytes.
type Job = (u64, usize, Vec<u8>);
/// A block compressed (or the error compressing it), by its number and record count.
type Done = (u64, usize, io::Result<Vec<u8>>);

/// Writes blocks of one codec to `out`, in the order they are given.
pub(crate) struct Blocks<W: Write> {
    out: W,
    codec: AvroCodec,
    sync: [u8; 16],
    pool: Option<Pool>,
}

/// Worker threads compressing blocks, and the blocks between them and the file.
struct Pool {
    /// `None` once the last block was given.
    jobs: Option<SyncSender<Job>>,
    results: Receiver<Done>,
    workers: Vec<JoinHandle<()>>,
    /// The number of the next block given, and of the next to write.
    given: u64,
    written: u64,
    /// Blocks compressed before their turn to be written.
    early: BTreeMap<u64, (usize, Vec<u8>)>,
}

impl<W: Write> Blocks<W> {
    /// Blocks in `codec`, each ended by `sync`, to `out` (after the header, which the caller
    /// wrote). Compressed on the calling thread for `null` and `snappy`, which are about as
    /// fast as a copy, or on a one-core machine; otherwise on one worker thread per core, up
    /// to [`MOST_WORKERS`].
    pub fn new(out: W, codec: AvroCodec, sync: [u8; 16]) -> Self {
        let cores = thread::available_parallelism().map_or(1, |n| n.get());
        let slow = !matches!(codec, AvroCodec::Null | AvroCodec::Snappy);
        let workers = if slow && cores > 1 {
            cores.min(MOST_WORKERS)
        } else {
            0
        };
        Self::with_threads(out, codec, sync, workers)
    }

    /// [`Blocks::new`] with `threads` workers (none: on the calling thread).
    pub fn with_threads(out: W, codec: AvroCodec, sync: [u8; 16], threads: usize) -> Self {
        Blocks {
            out,
            codec,
            sync,
            pool: (threads > 0).then(|| Pool::new(codec, threads)).flatten(),
        }
    }

    /// Adds the block of `count` records whose (uncompressed) bytes are `data`: written
    /// now, or once the blocks before it are. An error compressing or writing a block given
    /// before may be the one returned.
    pub fn push(&mut self, count: usize, data: &[u8]) -> Result<()> {
        let Some(pool) = &mut self.pool else {
            if self.codec == AvroCodec::Null {
                return Ok(container::write_block(
                    &mut self.out,
                    count,
                    data,
                    &self.sync,
                )?);
            }
            let block = self.codec.compress(data)?;
            return Ok(container::write_block(
                &mut self.out,
                count,
                &block,
                &self.sync,
            )?);
        };
        // At most two blocks a worker between the caller and the file.
        while pool.given - pool.written >= 2 * pool.workers.len() as u64 {
            pool.write_one(&mut self.out, &self.sync)?;
        }
        let job = (pool.given, count, data.to_vec());
        let sent = pool.jobs.as_ref().map(|jobs| jobs.send(job));
        if !matches!(sent, Some(Ok(()))) {
            return Err(stopped().into());
        }
        pool.given += 1;
        Ok(())
    }

    /// Writes the blocks still being compressed, flushes and returns the output.
    pub fn finish(mut self) -> Result<W> {
        if let Some(pool) = &mut self.pool {
            pool.jobs = None;
            while pool.written < pool.given {
                pool.write_one(&mut self.out, &self.sync)?;
            }
        }
        self.out.flush()?;
        let Blocks { out, pool, .. } = self;
        drop(pool);
        Ok(out)
    }
}

impl Pool {
    /// `None` when no thread could be started: the blocks are compressed by the caller.
    fn new(codec: AvroCodec, threads: usize) -> Option<Pool> {
        let (jobs, queue) = mpsc::sync_channel::<Job>(threads);
        let queue = Arc::new(Mutex::new(queue));
        let (done, results) = mpsc::channel::<Done>();
        let workers: Vec<_> = (0..threads)
            .filter_map(|_| {
                let (queue, done) = (queue.clone(), done.clone());
                thread::Builder::new()
                    .name("avro-blocks".into())
                    .spawn(move || loop {
                        let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                        let Ok((n, count, data)) = job else { break };
                        if done.send((n, count, codec.compress(&data))).is_err() {
                            break;
                        }
                    })
                    .ok()
            })
            .collect();
        (!workers.is_empty()).then(|| Pool {
            jobs: Some(jobs),
            results,
            workers,
            given: 0,
            written: 0,
            early: BTreeMap::new(),
        })
    }

    /// Waits for the next block in the file's order, and writes it.
    fn write_one<W: Write>(&mut self, out: &mut W, sync: &[u8; 16]) -> Result<()> {
        let (count, block) = loop {
            if let Some(block) = self.early.remove(&self.written) {
                break block;
            }
            let (n, count, block) = self.results.recv().map_err(|_| stopped())?;
            self.early.insert(n, (count, block?));
        };
        container::write_block(out, count, &block, sync)?;
        self.written += 1;
        Ok(())
    }
}

impl Drop for Pool {
    /// Ends the workers: no more blocks, and none of theirs is waited for.
    fn drop(&mut self) {
        self.jobs = None;
        let (_, results) = mpsc::channel();
        drop(std::mem::replace(&mut self.results, results));
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

/// The error of a worker gone (none could be started, or one stopped).
fn stopped() -> io::Error {
    io::Error::other("the threads compressing Avro blocks stopped")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of 1 to 60,000 bytes of text with repeats, as records make.
    fn blocks() -> Vec<Vec<u8>> {
        (0..40u32)
            .map(|i| {
                let len = (i as usize * 7919) % 60_000 + 1;
                (0..len)
                    .map(|k| b"hadoop record avro "[(k * (i as usize + 1)) % 19])
                    .collect()
            })
            .collect()
    }

    fn written(codec: AvroCodec, threads: usize) -> Vec<u8> {
        let mut w = Blocks::with_threads(Vec::new(), codec, [7; 16], threads);
        for (i, block) in blocks().iter().enumerate() {
            w.push(i + 1, block).unwrap();
        }
        w.finish().unwrap()
    }

    #[test]
    fn worker_threads_write_the_same_file_in_order() {
        for codec in AvroCodec::ALL {
            if codec.check_built().is_err() {
                continue;
            }
            let alone = written(codec, 0);
            assert!(alone.len() > 40 * 18, "{codec}");
            for threads in [1, 2, 5] {
                assert_eq!(written(codec, threads), alone, "{codec}, {threads} threads");
            }
        }
    }

    /// An output that fails after `left` writes.
    struct Failing {
        left: usize,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::other("the disk is full"));
            }
            self.left -= 1;
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_output_is_an_error_and_the_workers_end() {
        for left in [0, 1, 5, 30, 100] {
            let mut w = Blocks::with_threads(Failing { left }, AvroCodec::Snappy, [0; 16], 3);
            let pushed = blocks().iter().try_for_each(|b| w.push(1, b));
            let failed = pushed.is_err() || w.finish().is_err();
            assert!(failed, "{left} writes");
        }
        // Dropped with blocks still being compressed.
        let mut w = Blocks::with_threads(Vec::new(), AvroCodec::Snappy, [0; 16], 3);
        for block in blocks() {
            w.push(1, &block).unwrap();
        }
        drop(w);
    }
}
