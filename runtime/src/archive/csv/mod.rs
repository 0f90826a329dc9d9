//! CSV
