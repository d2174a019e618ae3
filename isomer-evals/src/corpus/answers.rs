//! Recorded answers: the `answers/<case id>.<attempt>.txt` files.
//!
//! Each file holds the raw model text of one attempt, exactly as the model
//! sent it (code fence and all): attempt `0` is the first try, `1` the single
//! retry `run_evals` asks for when the first is not valid. No other attempt
//! exists, so no other name is accepted.

/// The file name of the answer to `attempt` of case `id`:
/// `<id>.<attempt>.txt`.
pub fn answer_file_name(id: &str, attempt: u32) -> String {
    format!("{id}.{attempt}.txt")
}

/// Reads an answer file name back into its case id and attempt.
///
/// `None` unless the name is `<id>.<attempt>.txt` with a valid case id (see
/// [`super::manifest::is_case_id`]) and attempt `0` or `1`.
pub fn parse_answer_file_name(name: &str) -> Option<(&str, u32)> {
    let stem = name.strip_suffix(".txt")?;
    let (id, attempt) = stem.rsplit_once('.')?;
    let attempt = match attempt {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    super::manifest::is_case_id(id).then_some((id, attempt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(answer_file_name("kpi-board", 1), "kpi-board.1.txt");
        assert_eq!(
            parse_answer_file_name("kpi-board.1.txt"),
            Some(("kpi-board", 1))
        );
        assert_eq!(
            parse_answer_file_name("kpi_board.0.txt"),
            Some(("kpi_board", 0))
        );
    }

    #[test]
    fn refuses_names_no_replay_reads() {
        for name in [
            "kpi-board.2.txt",
            "kpi-board.txt",
            "kpi-board.0.md",
            ".0.txt",
            "a.b.0.txt",
            ".gitkeep",
            "kpi-board.01.txt",
        ] {
            assert_eq!(parse_answer_file_name(name), None, "{name}");
        }
    }
}
