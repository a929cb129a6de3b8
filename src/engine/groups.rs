//! Groups (MPI-4.1 §7.3): ordered sets of distinct processes, and the operations that build
//! one group from others. A process is named by its rank in MPI_COMM_WORLD; with one process
//! every group is either empty or holds process 0, but the operations below follow the
//! standard's rules for any membership, so that they can be checked by hand on larger groups.

use super::error::{Error, Result};

/// MPI_PROC_NULL as a rank: translates to itself.
pub const PROC_NULL: i32 = crate::abi::MPI_PROC_NULL;
/// MPI_UNDEFINED: a rank that has no counterpart, or a process outside a group.
pub const UNDEFINED: i32 = crate::abi::MPI_UNDEFINED;

/// How two groups compare (MPI_Group_compare).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// The same members in the same order (MPI_IDENT).
    Ident,
    /// The same members in another order (MPI_SIMILAR).
    Similar,
    /// Different members (MPI_UNEQUAL).
    Unequal,
}

impl Comparison {
    /// The ABI value: MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL.
    pub fn abi(self) -> i32 {
        match self {
            Comparison::Ident => crate::abi::MPI_IDENT as i32,
            Comparison::Similar => crate::abi::MPI_SIMILAR as i32,
            Comparison::Unequal => crate::abi::MPI_UNEQUAL as i32,
        }
    }
}

/// The members of a group, in rank order: `members[r]` is the process (its rank in
/// MPI_COMM_WORLD) of rank `r`. Members are distinct.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupData {
    members: Vec<u32>,
}

impl GroupData {
    /// The empty group (MPI_GROUP_EMPTY).
    pub fn empty() -> GroupData {
        GroupData::default()
    }

    /// The group of `processes`, in that order; `None` if one appears twice.
    pub fn from_processes(processes: Vec<u32>) -> Option<GroupData> {
        let mut seen = processes.clone();
        seen.sort_unstable();
        if seen.windows(2).any(|pair| pair[0] == pair[1]) {
            return None;
        }
        Some(GroupData { members: processes })
    }

    /// The processes, in rank order.
    pub fn members(&self) -> &[u32] {
        &self.members
    }

    /// MPI_Group_size.
    pub fn size(&self) -> i32 {
        self.members.len() as i32
    }

    /// The rank of `process` in the group, or MPI_UNDEFINED (MPI_Group_rank asks this of the
    /// calling process).
    pub fn rank_of(&self, process: u32) -> i32 {
        self.members
            .iter()
            .position(|member| *member == process)
            .map_or(UNDEFINED, |rank| rank as i32)
    }

    fn contains(&self, process: u32) -> bool {
        self.members.contains(&process)
    }

    /// The process of `rank`, if `rank` is a rank of this group.
    fn process(&self, rank: i32) -> Option<u32> {
        usize::try_from(rank)
            .ok()
            .and_then(|rank| self.members.get(rank).copied())
    }

    /// MPI_Group_translate_ranks: for each rank of `self`, the rank of the same process in
    /// `other`, MPI_UNDEFINED if it is not a member there; MPI_PROC_NULL stays MPI_PROC_NULL.
    /// A rank that is neither a rank of `self` nor MPI_PROC_NULL is MPI_ERR_RANK, and then
    /// nothing is translated.
    pub fn translate_ranks(&self, ranks: &[i32], other: &GroupData) -> Result<Vec<i32>> {
        ranks
            .iter()
            .map(|&rank| {
                if rank == PROC_NULL {
                    return Ok(PROC_NULL);
                }
                let process = self.process(rank).ok_or(Error::InvalidGroupRank(
                    "a rank to translate is not in the group",
                ))?;
                Ok(other.rank_of(process))
            })
            .collect()
    }

    /// MPI_Group_compare.
    pub fn compare(&self, other: &GroupData) -> Comparison {
        if self.members == other.members {
            return Comparison::Ident;
        }
        if self.members.len() == other.members.len()
            && self.members.iter().all(|process| other.contains(*process))
        {
            return Comparison::Similar;
        }
        Comparison::Unequal
    }

    /// MPI_Group_union: the members of `self` in their order, then those of `other` that are
    /// not in `self`, in `other`'s order.
    pub fn union(&self, other: &GroupData) -> GroupData {
        let mut members = self.members.clone();
        members.extend(other.members.iter().filter(|p| !self.contains(**p)));
        GroupData { members }
    }

    /// MPI_Group_intersection: the members of `self` that are in `other`, in `self`'s order.
    pub fn intersection(&self, other: &GroupData) -> GroupData {
        GroupData {
            members: self
                .members
                .iter()
                .copied()
                .filter(|p| other.contains(*p))
                .collect(),
        }
    }

    /// MPI_Group_difference: the members of `self` that are not in `other`, in `self`'s order.
    pub fn difference(&self, other: &GroupData) -> GroupData {
        GroupData {
            members: self
                .members
                .iter()
                .copied()
                .filter(|p| !other.contains(*p))
                .collect(),
        }
    }

    /// Checks that `ranks` are distinct ranks of this group (MPI_ERR_RANK otherwise).
    fn check_ranks(&self, ranks: &[i32]) -> Result<()> {
        let mut taken = vec![false; self.members.len()];
        for &rank in ranks {
            let index = usize::try_from(rank)
                .ok()
                .filter(|r| *r < taken.len())
                .ok_or(Error::InvalidGroupRank("a rank is not in the group"))?;
            if std::mem::replace(&mut taken[index], true) {
                return Err(Error::InvalidGroupRank("a rank is given twice"));
            }
        }
        Ok(())
    }

    /// MPI_Group_incl: rank `i` of the new group is the process of rank `ranks[i]` here.
    /// The ranks must be distinct ranks of this group (MPI_ERR_RANK); none gives the empty
    /// group.
    pub fn incl(&self, ranks: &[i32]) -> Result<GroupData> {
        self.check_ranks(ranks)?;
        Ok(GroupData {
            members: ranks.iter().map(|&r| self.members[r as usize]).collect(),
        })
    }

    /// MPI_Group_excl: the members whose ranks are not in `ranks`, in their order. The ranks
    /// must be distinct ranks of this group (MPI_ERR_RANK).
    pub fn excl(&self, ranks: &[i32]) -> Result<GroupData> {
        self.check_ranks(ranks)?;
        Ok(GroupData {
            members: self
                .members
                .iter()
                .enumerate()
                .filter(|(rank, _)| !ranks.contains(&(*rank as i32)))
                .map(|(_, p)| *p)
                .collect(),
        })
    }

    /// The ranks that `(first, last, stride)` triplets name, in order: first, first + stride,
    /// ... up to and including `last` when a step meets it. A zero stride, or one that moves
    /// away from `last`, is MPI_ERR_ARG (as in MPICH: the standard's formula would give such
    /// a triplet its first rank only, which no program means); both ends and so every rank
    /// named must be ranks of this group, and no rank may be named twice (MPI_ERR_RANK).
    pub fn range_ranks(&self, ranges: &[[i32; 3]]) -> Result<Vec<i32>> {
        let mut ranks = Vec::new();
        for &[first, last, stride] in ranges {
            if stride == 0 {
                return Err(Error::InvalidArgument("a range has stride 0"));
            }
            if (last > first && stride < 0) || (last < first && stride > 0) {
                return Err(Error::InvalidArgument(
                    "a range's stride moves away from its last rank",
                ));
            }
            let size = self.size();
            for end in [first, last] {
                if !(0..size).contains(&end) {
                    return Err(Error::InvalidGroupRank("a range ends outside the group"));
                }
            }
            let steps = (i64::from(last) - i64::from(first)) / i64::from(stride);
            for step in 0..=steps {
                ranks.push((i64::from(first) + step * i64::from(stride)) as i32);
            }
        }
        self.check_ranks(&ranks)?;
        Ok(ranks)
    }

    /// MPI_Group_range_incl: MPI_Group_incl of the ranks the triplets name.
    pub fn range_incl(&self, ranges: &[[i32; 3]]) -> Result<GroupData> {
        let ranks = self.range_ranks(ranges)?;
        self.incl(&ranks)
    }

    /// MPI_Group_range_excl: MPI_Group_excl of the ranks the triplets name.
    pub fn range_excl(&self, ranges: &[[i32; 3]]) -> Result<GroupData> {
        let ranks = self.range_ranks(ranges)?;
        self.excl(&ranks)
    }
}

// ---- group objects -----------------------------------------------------------------------

use super::table::{Id, Table};
use super::{Comm, HandleProblem, ObjectKind, Universe};

/// A group handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Group(pub Id);

impl Group {
    /// MPI_GROUP_EMPTY: predefined, never freed.
    pub const EMPTY: Group = Group(super::predefined_id(0));
}

/// The group table of a new universe: MPI_GROUP_EMPTY in slot 0.
pub(super) fn predefined() -> Table<GroupData> {
    let mut table = Table::default();
    table.insert_predefined(GroupData::empty());
    table
}

/// The one process of this library, by its rank in MPI_COMM_WORLD.
const ME: u32 = 0;

impl Universe {
    fn group_data(&self, group: Group) -> Result<GroupData> {
        let state = self.lock()?;
        state
            .groups
            .get(group.0)
            .cloned()
            .ok_or_else(|| Error::InvalidGroup(state.groups.problem(group.0)))
    }

    /// Makes a group object of `data`.
    fn new_group(&self, data: GroupData) -> Result<Group> {
        let mut state = self.lock()?;
        if state.finalized {
            return Err(Error::Finalized);
        }
        state
            .groups
            .insert(data)
            .map(Group)
            .ok_or(Error::TooManyObjects("group"))
    }

    /// The members of a group (for checks and the shells).
    pub fn group_members(&self, group: Group) -> Result<Vec<u32>> {
        Ok(self.group_data(group)?.members().to_vec())
    }

    /// MPI_Comm_group: a new group of the communicator's processes (here, the one process).
    pub fn comm_group(&self, comm: Comm) -> Result<Group> {
        self.lock()?.object(ObjectKind::Comm, comm.0)?;
        self.new_group(GroupData::from_processes(vec![ME]).expect("one process"))
    }

    /// MPI_Comm_remote_group and MPI_Comm_remote_size: there are no intercommunicators, so
    /// every communicator is refused with MPI_ERR_COMM (an invalid one too).
    pub fn comm_remote_group(&self, comm: Comm) -> Result<Group> {
        self.lock()?.object(ObjectKind::Comm, comm.0)?;
        Err(Error::InvalidHandle(
            ObjectKind::Comm,
            HandleProblem::OtherKind("intracommunicator (not an intercommunicator)"),
        ))
    }

    /// MPI_Comm_remote_size: MPI_ERR_COMM, as [`Universe::comm_remote_group`].
    pub fn comm_remote_size(&self, comm: Comm) -> Result<i32> {
        self.comm_remote_group(comm).map(|_| 0)
    }

    /// MPI_Comm_get_parent: `None` (MPI_COMM_NULL), since no process was spawned.
    pub fn comm_get_parent(&self) -> Result<Option<Comm>> {
        self.lock()?;
        Ok(None)
    }

    /// MPI_Comm_test_inter: false for every valid communicator.
    pub fn comm_test_inter(&self, comm: Comm) -> Result<bool> {
        self.lock()?.object(ObjectKind::Comm, comm.0)?;
        Ok(false)
    }

    /// MPI_Group_size.
    pub fn group_size(&self, group: Group) -> Result<i32> {
        Ok(self.group_data(group)?.size())
    }

    /// MPI_Group_rank: the calling process's rank, or MPI_UNDEFINED.
    pub fn group_rank(&self, group: Group) -> Result<i32> {
        Ok(self.group_data(group)?.rank_of(ME))
    }

    /// MPI_Group_translate_ranks.
    pub fn group_translate_ranks(&self, a: Group, ranks: &[i32], b: Group) -> Result<Vec<i32>> {
        let (a, b) = (self.group_data(a)?, self.group_data(b)?);
        a.translate_ranks(ranks, &b)
    }

    /// MPI_Group_compare.
    pub fn group_compare(&self, a: Group, b: Group) -> Result<Comparison> {
        Ok(self.group_data(a)?.compare(&self.group_data(b)?))
    }

    /// MPI_Group_union.
    pub fn group_union(&self, a: Group, b: Group) -> Result<Group> {
        let data = self.group_data(a)?.union(&self.group_data(b)?);
        self.new_group(data)
    }

    /// MPI_Group_intersection.
    pub fn group_intersection(&self, a: Group, b: Group) -> Result<Group> {
        let data = self.group_data(a)?.intersection(&self.group_data(b)?);
        self.new_group(data)
    }

    /// MPI_Group_difference.
    pub fn group_difference(&self, a: Group, b: Group) -> Result<Group> {
        let data = self.group_data(a)?.difference(&self.group_data(b)?);
        self.new_group(data)
    }

    /// MPI_Group_incl.
    pub fn group_incl(&self, group: Group, ranks: &[i32]) -> Result<Group> {
        let data = self.group_data(group)?.incl(ranks)?;
        self.new_group(data)
    }

    /// MPI_Group_excl.
    pub fn group_excl(&self, group: Group, ranks: &[i32]) -> Result<Group> {
        let data = self.group_data(group)?.excl(ranks)?;
        self.new_group(data)
    }

    /// MPI_Group_range_incl.
    pub fn group_range_incl(&self, group: Group, ranges: &[[i32; 3]]) -> Result<Group> {
        let data = self.group_data(group)?.range_incl(ranges)?;
        self.new_group(data)
    }

    /// MPI_Group_range_excl.
    pub fn group_range_excl(&self, group: Group, ranges: &[[i32; 3]]) -> Result<Group> {
        let data = self.group_data(group)?.range_excl(ranges)?;
        self.new_group(data)
    }

    /// MPI_Group_free. Freeing MPI_GROUP_EMPTY succeeds and frees nothing: group
    /// operations may hand MPI_GROUP_EMPTY back for an empty result (MPI-4.1 §7.3), so
    /// programs free whatever they got; the shell then sets the handle to MPI_GROUP_NULL.
    pub fn group_free(&self, group: Group) -> Result<()> {
        if group == Group::EMPTY {
            return Ok(());
        }
        let mut state = self.lock()?;
        match state.groups.remove(group.0) {
            Some(_) => Ok(()),
            None => Err(Error::InvalidGroup(state.groups.problem(group.0))),
        }
    }

    /// How many groups are alive, MPI_GROUP_EMPTY included.
    pub fn group_count(&self) -> Result<usize> {
        Ok(self.lock()?.groups.len())
    }
}

// ---- communicator constructors -----------------------------------------------------------

/// The split types of MPI_Comm_split_type (MPI-4.1 §7.4.2); the shells map the ABI values
/// onto these, MPI_UNDEFINED onto `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitType {
    /// MPI_COMM_TYPE_SHARED: processes that can share memory.
    Shared,
    /// MPI_COMM_TYPE_HW_GUIDED, with the value of the info key `mpi_hw_resource_type`.
    HwGuided,
    /// MPI_COMM_TYPE_HW_UNGUIDED: a strict subset of the parent at the next hardware level.
    HwUnguided,
    /// MPI_COMM_TYPE_RESOURCE_GUIDED (MPI-4.1), with the same info key.
    ResourceGuided,
}

/// The longest string tag of MPI_Comm_create_from_group, plus one (MPI_MAX_STRINGTAG_LEN
/// of the standard ABI).
pub const MAX_STRINGTAG_LEN: usize = crate::abi::MPI_MAX_STRINGTAG_LEN as usize;

impl Universe {
    /// A new communicator under `parent`'s rules: no attributes, an empty name, the given
    /// error handler.
    fn new_comm(&self, errhandler: super::ErrorHandler) -> Result<Comm> {
        let mut state = self.lock()?;
        let data = super::ObjectData::new(super::Detail::Comm { name: Vec::new() }, errhandler);
        Ok(Comm(state.insert(ObjectKind::Comm, data)?))
    }

    /// The error handler of a valid communicator.
    fn comm_errhandler(&self, comm: Comm) -> Result<super::ErrorHandler> {
        Ok(self.lock()?.object(ObjectKind::Comm, comm.0)?.errhandler)
    }

    /// Checks that `group` is a subgroup of `comm`'s group (MPI_ERR_GROUP otherwise).
    fn check_subgroup(&self, comm: Comm, group: Group) -> Result<GroupData> {
        self.lock()?.object(ObjectKind::Comm, comm.0)?;
        let data = self.group_data(group)?;
        if data.members().iter().any(|p| *p != ME) {
            return Err(Error::InvalidGroup(HandleProblem::OtherKind(
                "group that is not a subgroup of the communicator's",
            )));
        }
        Ok(data)
    }

    /// MPI_Comm_create: a new communicator of `group`, which must be a subgroup of `comm`'s
    /// group; `None` (MPI_COMM_NULL) when the calling process is not in it. The new
    /// communicator has no attributes and inherits `comm`'s error handler (MPI-4.1 §9.3).
    pub fn comm_create(&self, comm: Comm, group: Group) -> Result<Option<Comm>> {
        let data = self.check_subgroup(comm, group)?;
        let errhandler = self.comm_errhandler(comm)?;
        if data.rank_of(ME) == UNDEFINED {
            return Ok(None);
        }
        self.new_comm(errhandler).map(Some)
    }

    /// MPI_Comm_create_group: as [`Universe::comm_create`], with a tag that must lie in
    /// 0..=MPI_TAG_UB (MPI_ERR_TAG; MPI_TAG_UB is i32::MAX here).
    pub fn comm_create_group(&self, comm: Comm, group: Group, tag: i32) -> Result<Option<Comm>> {
        if tag < 0 {
            return Err(Error::InvalidTag(tag));
        }
        self.comm_create(comm, group)
    }

    /// MPI_Comm_split with its colour and key: `color` `None` (MPI_UNDEFINED) gives
    /// MPI_COMM_NULL; a negative colour is MPI_ERR_ARG. With one process the key orders
    /// nothing. Attributes are not copied; the error handler is inherited.
    pub fn comm_split_color(
        &self,
        comm: Comm,
        color: Option<i32>,
        _key: i32,
    ) -> Result<Option<Comm>> {
        if color.is_some_and(|c| c < 0) {
            return Err(Error::InvalidArgument(
                "color must be non-negative or MPI_UNDEFINED",
            ));
        }
        self.comm_split(comm, color.is_some())
    }

    /// MPI_Comm_split_type. `None` (MPI_UNDEFINED) gives MPI_COMM_NULL. The one process
    /// shares memory with itself, so MPI_COMM_TYPE_SHARED gives a communicator of it;
    /// the guided types give one when `resource` (the `mpi_hw_resource_type` or
    /// `mpi_pset_name` info value) is "mpi_shared_memory" or, for RESOURCE_GUIDED,
    /// "mpi://SELF" or "mpi://WORLD", else MPI_COMM_NULL (MPI-4.1 §7.4.2 lets an unknown
    /// resource give MPI_COMM_NULL); MPI_COMM_TYPE_HW_UNGUIDED gives MPI_COMM_NULL, since no
    /// non-empty strict subset of one process exists.
    pub fn comm_split_type(
        &self,
        comm: Comm,
        split: Option<SplitType>,
        resource: Option<&[u8]>,
    ) -> Result<Option<Comm>> {
        let errhandler = self.comm_errhandler(comm)?;
        let known = match split {
            None | Some(SplitType::HwUnguided) => false,
            Some(SplitType::Shared) => true,
            Some(SplitType::HwGuided) => resource == Some(b"mpi_shared_memory"),
            Some(SplitType::ResourceGuided) => match resource {
                Some(b"mpi_shared_memory") => true,
                Some(name) => super::sessions::pset(name).is_ok(),
                None => false,
            },
        };
        if !known {
            return Ok(None);
        }
        self.new_comm(errhandler).map(Some)
    }

    /// MPI_Comm_create_from_group: a communicator of `group`, which must contain the
    /// calling process (MPI_ERR_GROUP), with the error handler given; `stringtag` must be
    /// shorter than MPI_MAX_STRINGTAG_LEN (MPI_ERR_ARG). With one process no other caller
    /// has to match the tag, so it only needs to be valid.
    pub fn comm_create_from_group(
        &self,
        group: Group,
        stringtag: &[u8],
        errhandler: super::ErrorHandler,
    ) -> Result<Comm> {
        if stringtag.len() >= MAX_STRINGTAG_LEN {
            return Err(Error::InvalidArgument("stringtag too long"));
        }
        if self.group_data(group)?.rank_of(ME) == UNDEFINED {
            return Err(Error::InvalidGroup(HandleProblem::OtherKind(
                "group without the calling process",
            )));
        }
        self.errhandler_check(errhandler, super::ErrhandlerKind::Comm)?;
        self.new_comm(errhandler)
    }
}

// ---- communicator info hints --------------------------------------------------------------

/// The communicator hints the standard defines (MPI-4.1 §7.4.4), all taking "true" or
/// "false"; the only ones a communicator keeps. Others are ignored, as the standard allows.
pub const COMM_HINTS: [&str; 5] = [
    "mpi_assert_no_any_tag",
    "mpi_assert_no_any_source",
    "mpi_assert_exact_length",
    "mpi_assert_allow_overtaking",
    "mpi_assert_strict_persistent_collective_ordering",
];

/// The hints of `info` a communicator keeps: defined keys with the value "true" or "false".
fn kept_hints(info: &super::InfoData) -> super::InfoData {
    let mut kept = super::InfoData::new();
    for (key, value) in info.pairs() {
        let known = COMM_HINTS.iter().any(|hint| hint.as_bytes() == key);
        if known && matches!(value, b"true" | b"false") {
            kept.set(key, value).expect("a valid pair stays valid");
        }
    }
    kept
}

impl Universe {
    /// Gives `to` the hints of `from` (MPI_Comm_dup and MPI_Comm_idup keep the parent's).
    pub(super) fn copy_comm_hints(&self, from: Comm, to: Comm) -> Result<()> {
        let mut state = self.lock()?;
        // Most programs set no hints: no hashing then.
        if state.comm_hints.is_empty() {
            return Ok(());
        }
        if let Some(hints) = state.comm_hints.get(&from.0).cloned() {
            state.comm_hints.insert(to.0, hints);
        }
        Ok(())
    }

    /// MPI_Comm_set_info: replaces the communicator's hints by those of `info` that it keeps
    /// ([`COMM_HINTS`] with "true" or "false"); others are ignored.
    pub fn comm_set_info(&self, comm: Comm, info: super::Info) -> Result<()> {
        let hints = self.with_info(info, |data| Ok(kept_hints(data)))?;
        let mut state = self.lock()?;
        state.object(ObjectKind::Comm, comm.0)?;
        state.comm_hints.insert(comm.0, hints);
        Ok(())
    }

    /// MPI_Comm_get_info: a new info object with the hints in use.
    pub fn comm_get_info(&self, comm: Comm) -> Result<super::Info> {
        let hints = {
            let state = self.lock()?;
            state.object(ObjectKind::Comm, comm.0)?;
            state.comm_hints.get(&comm.0).cloned().unwrap_or_default()
        };
        let info = self.info_create()?;
        for (key, value) in hints.pairs() {
            self.info_set(info, key, value)?;
        }
        Ok(info)
    }

    /// MPI_Comm_dup_with_info: MPI_Comm_dup (attributes copied by their callbacks), with the
    /// hints of `info` instead of the parent's. The info is checked before anything is made.
    pub fn comm_dup_with_info(&self, comm: Comm, info: super::Info) -> Result<Comm> {
        let hints = self.with_info(info, |data| Ok(kept_hints(data)))?;
        let new = self.comm_dup(comm)?;
        self.lock()?.comm_hints.insert(new.0, hints);
        Ok(new)
    }
}

impl Universe {
    /// The hints a new duplicate keeps: those of `info` that a communicator keeps, or none
    /// for `None` (MPI_INFO_NULL). Checks the info object.
    fn hints_of(&self, info: Option<super::Info>) -> Result<super::InfoData> {
        match info {
            Some(info) => self.with_info(info, |data| Ok(kept_hints(data))),
            None => Ok(super::InfoData::new()),
        }
    }

    /// MPI_Comm_dup_with_info where `None` is MPI_INFO_NULL: the duplicate has no hints.
    pub fn comm_dup_with_hints(&self, comm: Comm, info: Option<super::Info>) -> Result<Comm> {
        let hints = self.hints_of(info)?;
        let new = self.comm_dup(comm)?;
        self.store_hints(new, hints)?;
        Ok(new)
    }

    /// MPI_Comm_idup_with_info (`None`: MPI_INFO_NULL): as MPI_Comm_idup, with the hints of
    /// `info` instead of the parent's; the info object is checked before anything is made.
    pub fn comm_idup_with_info(
        &self,
        comm: Comm,
        info: Option<super::Info>,
    ) -> Result<(Comm, super::Request)> {
        let hints = self.hints_of(info)?;
        let (new, request) = self.comm_idup(comm)?;
        self.store_hints(new, hints)?;
        Ok((new, request))
    }

    /// Gives `comm` exactly `hints` (none kept for an empty set).
    fn store_hints(&self, comm: Comm, hints: super::InfoData) -> Result<()> {
        let mut state = self.lock()?;
        if hints.nkeys() == 0 {
            state.comm_hints.remove(&comm.0);
        } else {
            state.comm_hints.insert(comm.0, hints);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::error::ErrorClass;

    fn group(processes: &[u32]) -> GroupData {
        GroupData::from_processes(processes.to_vec()).unwrap()
    }

    #[test]
    fn duplicate_processes_make_no_group() {
        assert!(GroupData::from_processes(vec![1, 2, 1]).is_none());
        assert_eq!(group(&[3, 1]).members(), &[3, 1]);
    }

    #[test]
    fn size_and_rank() {
        let g = group(&[5, 2, 9]);
        assert_eq!(g.size(), 3);
        assert_eq!(g.rank_of(2), 1);
        assert_eq!(g.rank_of(7), UNDEFINED);
        assert_eq!(GroupData::empty().size(), 0);
        assert_eq!(GroupData::empty().rank_of(0), UNDEFINED);
    }

    #[test]
    fn translate_ranks_maps_proc_null_and_undefined() {
        let a = group(&[0, 1, 2, 3]);
        let b = group(&[3, 1]);
        assert_eq!(
            a.translate_ranks(&[3, PROC_NULL, 0, 1], &b).unwrap(),
            vec![0, PROC_NULL, UNDEFINED, 1]
        );
        assert_eq!(a.translate_ranks(&[], &b).unwrap(), Vec::<i32>::new());
        for bad in [4, -1, UNDEFINED] {
            let error = a.translate_ranks(&[0, bad], &b).unwrap_err();
            assert_eq!(error.class(), ErrorClass::Rank);
        }
    }

    #[test]
    fn compare_ident_similar_unequal() {
        let a = group(&[0, 1, 2]);
        assert_eq!(a.compare(&group(&[0, 1, 2])), Comparison::Ident);
        assert_eq!(a.compare(&group(&[2, 0, 1])), Comparison::Similar);
        assert_eq!(a.compare(&group(&[0, 1])), Comparison::Unequal);
        assert_eq!(a.compare(&group(&[0, 1, 3])), Comparison::Unequal);
        assert_eq!(
            GroupData::empty().compare(&GroupData::empty()),
            Comparison::Ident
        );
        assert_eq!(Comparison::Ident.abi(), 201);
        assert_eq!(Comparison::Similar.abi(), 203);
        assert_eq!(Comparison::Unequal.abi(), 204);
    }

    #[test]
    fn set_operations_keep_the_standards_order() {
        let a = group(&[4, 1, 7, 2]);
        let b = group(&[2, 9, 4, 3]);
        assert_eq!(a.union(&b).members(), &[4, 1, 7, 2, 9, 3]);
        assert_eq!(b.union(&a).members(), &[2, 9, 4, 3, 1, 7]);
        assert_eq!(a.intersection(&b).members(), &[4, 2]);
        assert_eq!(b.intersection(&a).members(), &[2, 4]);
        assert_eq!(a.difference(&b).members(), &[1, 7]);
        assert_eq!(b.difference(&a).members(), &[9, 3]);
        assert_eq!(a.difference(&a), GroupData::empty());
        assert_eq!(a.union(&GroupData::empty()), a);
    }

    #[test]
    fn incl_and_excl() {
        let a = group(&[10, 11, 12, 13, 14]);
        assert_eq!(a.incl(&[3, 0, 4]).unwrap().members(), &[13, 10, 14]);
        assert_eq!(a.incl(&[]).unwrap(), GroupData::empty());
        assert_eq!(a.excl(&[3, 0]).unwrap().members(), &[11, 12, 14]);
        assert_eq!(a.excl(&[]).unwrap(), a);
        for bad in [&[5][..], &[-1], &[1, 1], &[PROC_NULL]] {
            assert_eq!(a.incl(bad).unwrap_err().class(), ErrorClass::Rank);
            assert_eq!(a.excl(bad).unwrap_err().class(), ErrorClass::Rank);
        }
    }

    #[test]
    fn ranges() {
        let a = group(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        // The standard's example shape: (first, last, stride), last included when reached.
        assert_eq!(a.range_ranks(&[[1, 7, 3]]).unwrap(), vec![1, 4, 7]);
        assert_eq!(a.range_ranks(&[[1, 8, 3]]).unwrap(), vec![1, 4, 7]);
        assert_eq!(a.range_ranks(&[[9, 0, -4]]).unwrap(), vec![9, 5, 1]);
        assert_eq!(a.range_ranks(&[[2, 2, 5]]).unwrap(), vec![2]);
        assert_eq!(
            a.range_ranks(&[[0, 2, 1], [8, 6, -2]]).unwrap(),
            vec![0, 1, 2, 8, 6]
        );
        assert_eq!(
            a.range_incl(&[[6, 9, 3], [2, 2, 1]]).unwrap().members(),
            &[6, 9, 2]
        );
        assert_eq!(
            a.range_excl(&[[0, 8, 2]]).unwrap().members(),
            &[1, 3, 5, 7, 9]
        );
        assert_eq!(a.range_incl(&[]).unwrap(), GroupData::empty());
        assert_eq!(
            a.range_ranks(&[[0, 3, 0]]).unwrap_err().class(),
            ErrorClass::Arg
        );
        assert_eq!(
            a.range_ranks(&[[3, 0, 1]]).unwrap_err().class(),
            ErrorClass::Arg
        );
        assert_eq!(
            a.range_ranks(&[[0, 10, 1]]).unwrap_err().class(),
            ErrorClass::Rank
        );
        assert_eq!(
            a.range_ranks(&[[-1, 3, 1]]).unwrap_err().class(),
            ErrorClass::Rank
        );
        assert_eq!(
            a.range_incl(&[[0, 4, 2], [4, 5, 1]]).unwrap_err().class(),
            ErrorClass::Rank
        );
        assert_eq!(
            a.range_excl(&[[0, 4, 2], [2, 2, 1]]).unwrap_err().class(),
            ErrorClass::Rank
        );
    }

    #[test]
    fn huge_strides_do_not_overflow() {
        let a = group(&[0, 1, 2]);
        assert_eq!(a.range_ranks(&[[0, 2, i32::MAX]]).unwrap(), vec![0]);
        assert_eq!(a.range_ranks(&[[2, 0, i32::MIN]]).unwrap(), vec![2]);
    }
}
