//! The Hadoop Record I/O compiler (`rcc`) as a library.
