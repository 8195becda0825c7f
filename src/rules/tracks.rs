//! Tracks and counted resources a chapter declares in `tracks.ron` (Rage, Flame, Glory, gems,
//! equipment): one value per camp or per seat, bounded by its definition, moved by effects
//! (`Effect::Track`) or by a chapter's rules (`add`), each move told by `GameEvent::TrackMoved`.
//! Only the tracks of the chapters in play are kept, so a level without chapters has none and
//! its saves and hashes are as they were.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{GameEvent, GameWorld, InPlay};
use crate::content::{Camp, TrackDef, TrackPer, TrackWho};

/// Who holds a value of a track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Holder {
    /// A camp.
    Camp(Camp),
    /// An Eladrin seat.
    Seat(u8),
}

/// The values of the tracks moved so far (a value never moved is its track's `start`).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tracks(pub Vec<(String, Holder, i32)>);

impl Tracks {
    /// No track moved (the snapshot then stores nothing).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A track the code names is one `tracks.ron` declares: content that plays a chapter without
/// its tracks is refused at load (`ChapterContent::tracks`), and an effect's track is checked
/// at load, so a miss here is a misspelt id in the code. Asked only when the track is not in
/// play (the look-up found nothing), so it costs nothing on the search's path; it fails in
/// every build, so any test that plays the chapter finds the misspelling.
fn declared(world: &World, track: &str) {
    assert!(
        world.content().set.tracks.iter().any(|t| t.id == track),
        "the track `{track}` is not declared in tracks.ron: declare it, and in the chapter's \
         `ChapterContent::tracks`"
    );
}

/// The definition of a track of a chapter in play.
pub fn def(world: &World, track: &str) -> Option<TrackDef> {
    let db = world.content();
    let in_play = world.get_resource::<InPlay>()?;
    db.set
        .tracks
        .iter()
        .find(|t| t.id == track && in_play.has(&t.chapter))
        .cloned()
}

/// The tracks of the chapters in play, in content order.
pub fn in_play(world: &World) -> Vec<TrackDef> {
    let db = world.content();
    let Some(in_play) = world.get_resource::<InPlay>() else {
        return Vec::new();
    };
    db.set
        .tracks
        .iter()
        .filter(|t| in_play.has(&t.chapter))
        .cloned()
        .collect()
}

/// The holders of a track in a game of `seats` Eladrin seats, in the order a bar shows them.
pub fn holders(def: &TrackDef, seats: u8) -> Vec<Holder> {
    let mut v: Vec<Holder> = match def.per {
        TrackPer::Camp => vec![Holder::Camp(Camp::Eladrins)],
        TrackPer::Seat => (0..seats.max(1)).map(Holder::Seat).collect(),
    };
    if def.chaos {
        v.push(Holder::Camp(Camp::Chaos));
    }
    v
}

/// The value `holder` has on `track` (0 for a track not in play).
pub fn get(world: &World, track: &str, holder: Holder) -> i32 {
    let Some(d) = def(world, track) else {
        declared(world, track);
        return 0;
    };
    world
        .resource::<Tracks>()
        .0
        .iter()
        .find(|(t, h, _)| t == track && *h == holder)
        .map_or(d.start, |(_, _, v)| *v)
}

/// Moves `holder`'s value of `track` by `change`, within the track's bounds; returns the new
/// value (none for a track not in play: nothing happens).
pub fn add(world: &mut World, track: &str, holder: Holder, change: i32) -> Option<i32> {
    let Some(d) = def(world, track) else {
        declared(world, track);
        return None;
    };
    let old = get(world, track, holder);
    let new = old.saturating_add(change).clamp(d.min, d.max);
    if new == old {
        return Some(old);
    }
    let mut t = world.resource_mut::<Tracks>();
    match t
        .0
        .iter_mut()
        .find(|(id, h, _)| id == track && *h == holder)
    {
        Some(entry) => entry.2 = new,
        None => {
            t.0.push((track.to_string(), holder, new));
            t.0.sort();
        }
    }
    world.emit(GameEvent::TrackMoved {
        track: track.to_string(),
        holder,
        change: new - old,
        value: new,
    });
    Some(new)
}

/// The holders an effect's `who` names now.
pub fn targets(world: &World, d: &TrackDef, who: TrackWho) -> Vec<Holder> {
    let c = world.resource::<super::Cycle>();
    let acting_camp = world.deciding();
    let seats = world.resource::<super::GameSetup>().seats();
    let chaos = who == TrackWho::Chaos || (who == TrackWho::Acting && acting_camp == Camp::Chaos);
    if chaos {
        // A track Chaos holds no value of (`chaos: false`) is not moved for it.
        return if d.chaos {
            vec![Holder::Camp(Camp::Chaos)]
        } else {
            Vec::new()
        };
    }
    match (who, d.per) {
        (_, TrackPer::Camp) => vec![Holder::Camp(Camp::Eladrins)],
        (TrackWho::Acting, TrackPer::Seat) => vec![Holder::Seat(c.acting_seat())],
        _ => (0..seats).map(Holder::Seat).collect(),
    }
}

/// One track as a bar shows it: its values by holder, within its bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The track's id.
    pub id: String,
    /// Its name (untranslated).
    pub name: String,
    /// Lowest value.
    pub min: i32,
    /// Highest value.
    pub max: i32,
    /// Each holder's value, in the bar's order.
    pub values: Vec<(Holder, i32)>,
}

/// The tracks of the chapters in play, for the view's track bar.
pub fn rows(world: &World) -> Vec<Row> {
    let seats = world.resource::<super::GameSetup>().seats();
    in_play(world)
        .into_iter()
        .map(|d| Row {
            values: holders(&d, seats)
                .into_iter()
                .map(|h| (h, get(world, &d.id, h)))
                .collect(),
            id: d.id,
            name: d.name,
            min: d.min,
            max: d.max,
        })
        .collect()
}
