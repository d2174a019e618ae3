//! The reference slides pack.
