//! The input budget's one rule, `Meter`: what a value holds, counted as
//! its parts are met, and which limit upstream's walk meets first.

use super::{BudgetRefusal, InputBudget, InputUsage};

/// The input budget's one rule, fed a value's parts depth first as they are
/// met: [`Meter::open`] when a container starts, [`Meter::leaf`] for a leaf,
/// [`Meter::close`] when a container ends. Both [`check_input_budget`](super::check_input_budget)
/// (walking a built value) and the JSON text reader
/// ([`crate::json::Document::parse_within`], reading text) feed it, so a value
/// and its text meet the same limits.
///
/// Two uses, two walks:
/// - [`Meter::new`] totals the values, characters and deepest nesting and
///   tells at every step whether all three are still [`Meter::within`] the
///   budget: a reader stops building at the first step over it;
/// - when a total is over its limit, [`Meter::ranker`] walks the input
///   again, knowing the totals, and [`Meter::refusal`] names the limit
///   upstream's walk meets first.
///
/// Upstream's walk pops the last pushed container: it expands
/// containers in the reverse of the order in which they *end*, each one
///   1. refused if it nests deeper than the depth limit, else
///   2. refused if the values counted so far plus its children's count is
///      over the values limit, else
///   3. counting each child's key and (for a leaf) its own characters,
///      refused once the characters are over their limit.
///
/// So before a container is expanded, exactly the containers that end after
/// it have been. When a container ends, the ranker knows what those hold:
/// the totals less everything whose parent ended before. Of the containers
/// that fail a check, the one that ends last is the one upstream expands
/// first; its first failing check is the refusal. A container nested past
/// the depth limit fails step 1, and every container that ends after the
/// last such one is nested within the limit, so the ranker keeps per-container
/// counts only for containers within the depth limit: its memory is bounded
/// by the budget, not the input.
///
/// The root is counted before anything is expanded: with a values limit of
/// 0 it is refused at once, and a leaf root's own characters are its only
/// ones.
pub(crate) struct Meter {
    budget: InputBudget,
    /// Everything counted so far; `depth` is the deepest nesting met.
    usage: InputUsage,
    /// Containers open now.
    depth: usize,
    /// The ranking walk's state; `None` while totalling.
    rank: Option<Rank>,
}

/// What the ranking walk keeps.
struct Rank {
    /// The totalling walk's totals.
    totals: InputUsage,
    /// For each open container within the depth limit, outermost first, the
    /// values and characters its children have added so far.
    open: Vec<Counts>,
    /// The sum of `open`.
    open_sum: Counts,
    /// The refusal at the last-ended container that failed a check.
    first: Option<BudgetRefusal>,
}

/// Values and characters added by a container's children.
#[derive(Clone, Copy, Default)]
struct Counts {
    values: usize,
    characters: usize,
}

impl Meter {
    /// A totalling meter for `budget`.
    pub(crate) fn new(budget: InputBudget) -> Self {
        Meter {
            budget,
            usage: InputUsage::default(),
            depth: 0,
            rank: None,
        }
    }

    /// A ranking meter over the same input, with this meter's totals; feed
    /// it the whole input again, then read [`Meter::refusal`].
    pub(crate) fn ranker(&self) -> Self {
        Meter {
            rank: Some(Rank {
                totals: self.usage,
                open: Vec::new(),
                open_sum: Counts::default(),
                first: None,
            }),
            ..Meter::new(self.budget)
        }
    }

    /// What was counted so far (all of it once the input is fed).
    pub(crate) fn usage(&self) -> InputUsage {
        self.usage
    }

    /// Whether everything counted so far is within every limit.
    pub(crate) fn within(&self) -> bool {
        self.usage.is_within(&self.budget)
    }

    /// A container starts, under a key of `key_units` UTF-16 code units (0
    /// for an array item or the root). Returns [`Meter::within`].
    pub(crate) fn open(&mut self, key_units: usize) -> bool {
        self.count(key_units);
        self.depth += 1;
        self.usage.depth = self.usage.depth.max(self.depth);
        if let Some(rank) = &mut self.rank
            && self.depth <= self.budget.depth
        {
            rank.open.push(Counts::default());
        }
        self.within()
    }

    /// A leaf of `own_units` characters ([`leaf_length`](super::leaf_length)) under a key of
    /// `key_units`. Returns [`Meter::within`].
    pub(crate) fn leaf(&mut self, key_units: usize, own_units: usize) -> bool {
        self.count(key_units.saturating_add(own_units));
        self.within()
    }

    /// The innermost open container ends.
    pub(crate) fn close(&mut self) {
        if let Some(rank) = &mut self.rank {
            rank.close(self.depth, self.usage, self.budget);
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// Counts one value adding `characters`, to its parent too when ranking.
    fn count(&mut self, characters: usize) {
        self.usage.values += 1;
        self.usage.characters = self.usage.characters.saturating_add(characters);
        if let Some(rank) = &mut self.rank
            && self.depth <= self.budget.depth
            && let Some(parent) = rank.open.last_mut()
        {
            parent.values += 1;
            parent.characters = parent.characters.saturating_add(characters);
            rank.open_sum.values += 1;
            rank.open_sum.characters = rank.open_sum.characters.saturating_add(characters);
        }
    }

    /// The limit upstream's walk meets first, once a ranking meter has been
    /// fed the whole input (see the type's docs).
    pub(crate) fn refusal(&self) -> BudgetRefusal {
        let budget = self.budget;
        let totals = self.rank.as_ref().map_or(self.usage, |rank| rank.totals);
        if budget.values == 0 {
            return BudgetRefusal::Values(budget.values);
        }
        if let Some(first) = self.rank.as_ref().and_then(|rank| rank.first) {
            return first;
        }
        // A leaf root, or a meter that was not ranked: whichever total is
        // over, in upstream's order of checks.
        if totals.depth > budget.depth {
            BudgetRefusal::Depth(budget.depth)
        } else if totals.values > budget.values {
            BudgetRefusal::Values(budget.values)
        } else {
            BudgetRefusal::Characters(budget.characters)
        }
    }
}

impl Rank {
    /// The container at `depth` ends, `seen` having been counted so far:
    /// runs upstream's three checks for it.
    fn close(&mut self, depth: usize, seen: InputUsage, budget: InputBudget) {
        if depth > budget.depth {
            self.first = Some(BudgetRefusal::Depth(budget.depth));
            return;
        }
        // Counted so far: the root, the children of containers that ended
        // before this one, and the children of this one and its ancestors
        // (`open_sum`). Upstream expands this container after those that
        // end later, so when it runs this container's checks it has counted
        // the totals less the children of containers that ended before.
        let ended_before = Counts {
            values: seen.values - 1 - self.open_sum.values,
            characters: seen.characters - self.open_sum.characters,
        };
        let own = self.open.pop().unwrap_or_default();
        self.open_sum.values -= own.values;
        self.open_sum.characters -= own.characters;
        if self.totals.values - ended_before.values > budget.values {
            self.first = Some(BudgetRefusal::Values(budget.values));
        } else if self.totals.characters - ended_before.characters > budget.characters {
            self.first = Some(BudgetRefusal::Characters(budget.characters));
        }
    }
}
