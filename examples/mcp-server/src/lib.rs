//! An MCP server for the slides runtime (work in progress).
