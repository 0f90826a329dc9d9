//! What a reader records for [`super::info()`] while reading: the blocks and sync entries it
//! passes. Shared by the reader, which fills it in, and the summary, which reports it.

/// A block of a block-compressed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSummary {
    /// Byte offset of the block (its sync entry).
    pub offset: u64,
    /// Records in the block.
    pub records: u64,
    /// Bytes of the block in the file, sync entry included.
    pub stored: u64,
    /// Bytes of its four buffers once decompressed.
    pub raw: u64,
}

/// What [`super::info()`] collects while reading.
#[derive(Debug, Default)]
pub(super) struct Log {
    pub syncs: Vec<u64>,
    pub blocks: Vec<BlockSummary>,
}
