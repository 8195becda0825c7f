//! The trial chapter: a small chapter that lives only in the tests, built through the chapter
//! seams alone (`rules::chapter`, `ai::ScorerAppExt`, `text::chapter`), so that each seam is
//! proved by a real user of it and removing this file (and `tests/chapters/trial/`) changes no
//! core file. It is the worked example of `docs/modding.md`, "Writing a chapter".
//!
//! Its rules, cited as T-numbers in its code, refusals and tests:
//! - **T1 (draw, automatic step `TDRAW`)**: each Eladrin seat draws up to `hand` cards (level
//!   `ext.trial`); an empty deck is made again from the chapter's cards (its own catalogue
//!   `content/sparks.ron`: each spark's value, `copies` times), shuffled with the game's dice.
//!   Hands are hidden: a seat sees only its own.
//! - **T2 (stake, a decision by Chaos, step `TBID`)**: Chaos stakes 1 to 3, once a cycle; the
//!   step waits while no stake is set (or until Chaos says `Done`).
//! - **T3 (council, rounds among the seats then Chaos, step `TCOUNCIL`)**: on its turn a seat
//!   plays a card of its hand: its flame rises by the card's value.
//! - **T4 (quench)**: on its turn in the council, Chaos lowers the highest flame by its stake.
//!   The council ends when everyone passed in a row, or once the beacon is lit (T6).
//! - **T5 (rally, main phase R9)**: once a cycle, outside an activation, an Eladrin seat raises
//!   its own flame by 1; it is that seat's action of the turn.
//! - **T6 (the beacon)**: when the seats' flames together reach `goal`, the Eladrins win.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::egui;
use serde::{Deserialize, Serialize};

use chaos_outpost::ai::{self, Choice, ScorerAppExt};
use chaos_outpost::content::catalogue::{CatalogueEntry, Check, SchemaSource};
use chaos_outpost::content::level_fields::LevelFields;
use chaos_outpost::content::{
    Among, Camp, Chapter, ChapterContent, ChapterSet, ContentDb, Level, Who, embedded_files, mods,
};
use chaos_outpost::rules::chapter::{
    self, ChapterAction, ChapterAppExt, ChapterRefusal, ChapterState, ChapterValue, Place,
    StateCheck, TurnUse, Viewer,
};
use chaos_outpost::rules::outcome::EndReason;
use chaos_outpost::rules::tracks::{self, Holder};
use chaos_outpost::rules::{Action, GameRng, GameWorld, StepDef, StepKind, StepSchedule};
use chaos_outpost::text::Translations;
use chaos_outpost::text::chapter::{ChapterWords, ChapterWordsExt};
use chaos_outpost::view::chapter_panel::PanelCx;
use chaos_outpost::view::chapter_view::ChapterViewExt;

/// The chapter's id.
pub const ID: &str = "trial";

/// The chapter's level fields (`ext: {"trial": (…)}`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrialLevel {
    /// Cards in a hand after the draw (T1).
    pub hand: u8,
    /// Flame to light the beacon (T6).
    pub goal: u32,
}

impl LevelFields for TrialLevel {
    const CHAPTER: &'static str = ID;
    /// Checked when content loads, like the core's fields: a hand of 1 to 9 cards, a goal.
    fn check(&self, _level: &Level, _db: &ContentDb) -> Vec<Check> {
        let mut out = Vec::new();
        if !(1..=9).contains(&self.hand) {
            out.push(Check::error(
                "hand",
                format!("1 to 9 cards, not {}", self.hand),
            ));
        }
        if self.goal == 0 {
            out.push(Check::error("goal", "the beacon needs a goal above 0"));
        }
        out
    }
}

/// A spark card of the trial chapter (`content/sparks.ron`, its own catalogue file): the deck
/// holds `copies` cards of `value` for each, in the file's order, before the shuffle (T1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spark {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The flame it gives when played (T3), 1 to 9.
    pub value: u8,
    /// How many of it the deck holds, 1 to 20.
    #[serde(default = "one")]
    pub copies: u8,
}

fn one() -> u8 {
    1
}

impl CatalogueEntry for Spark {
    const FILE: &'static str = "sparks.ron";
    const CHAPTER: &'static str = ID;
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn check(&self, _db: &ContentDb) -> Vec<Check> {
        let mut out = Vec::new();
        if !(1..=9).contains(&self.value) {
            out.push(Check::error(
                "value",
                format!(
                    "a spark's value is 1 to 9 ({} is {}): 0 is how a face-down card reads",
                    self.id, self.value
                ),
            ));
        }
        if !(1..=20).contains(&self.copies) {
            out.push(Check::error(
                "copies",
                format!(
                    "a deck holds 1 to 20 copies of a spark, not {}",
                    self.copies
                ),
            ));
        }
        out
    }
}

/// The deck T1 makes: each spark's value, `copies` times, in the file's order.
pub fn full_deck(db: &ContentDb) -> Vec<u8> {
    db.catalogue::<Spark>()
        .iter()
        .flat_map(|s| std::iter::repeat_n(s.value, s.copies as usize))
        .collect()
}

/// The chapter's state: saved, hashed, undone with the game. Every field has a default, so a
/// later version of the chapter can add one and still read older saves.
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Trial {
    /// The deck, top last (hidden from everyone: `seen_by` blanks it).
    pub deck: Vec<u8>,
    /// Each seat's hand (hidden from the others and from Chaos).
    pub hands: BTreeMap<u8, Vec<u8>>,
    /// Chaos' stake this cycle (T2; 0: none yet).
    pub stake: u32,
    /// Seats that rallied this cycle (T5).
    pub rallied: Vec<u8>,
}

/// A hidden card, as a viewer who may not see it knows it.
pub const HIDDEN: u8 = 0;

impl ChapterState for Trial {
    const CHAPTER: &'static str = ID;
    fn seen_by(&self, viewer: Viewer) -> Self {
        let mut s = self.clone();
        s.deck = vec![HIDDEN; s.deck.len()];
        for (seat, hand) in s.hands.iter_mut() {
            if viewer != Viewer::Seat(*seat) {
                *hand = vec![HIDDEN; hand.len()];
            }
        }
        s
    }
    fn check(&self, cx: &StateCheck<'_>) -> Result<(), String> {
        if self.deck.len() > 1000 || self.hands.len() > 8 {
            return Err("more cards or seats than a game can hold".into());
        }
        if self.hands.values().any(|h| h.len() > 100) {
            return Err("a hand of more than 100 cards".into());
        }
        // T1 deals the seats in play, T5 rallies them: no other seat holds a hand or rallied.
        if let Some(seat) = self
            .hands
            .keys()
            .chain(&self.rallied)
            .find(|s| **s >= cx.seats)
        {
            return Err(format!("seat {seat}, the save has {} seats", cx.seats));
        }
        Ok(())
    }
}

/// The chapter's track (`tests/chapters/trial/content/tracks.ron`): each seat's flame.
pub const FLAME: &str = "flame";

/// A seat's flame (T3).
pub fn flame(world: &World, seat: u8) -> i32 {
    tracks::get(world, FLAME, Holder::Seat(seat))
}

/// The seats' flames together (T6).
pub fn total(world: &World) -> i32 {
    (0..chapter::seats(world)).map(|s| flame(world, s)).sum()
}

/// The chapter's actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrialAction {
    /// T2: Chaos stakes this much.
    Stake(u32),
    /// T3: the seat plays a card of this value from its hand.
    Play {
        /// The card's value.
        card: u8,
    },
    /// T4: Chaos quenches the highest flame.
    Quench,
    /// T5: the seat rallies.
    Rally,
}

/// The chapter's refusals, each citing its rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrialRefusal {
    /// T2: a stake is 1 to 3.
    StakeRange {
        /// The highest stake.
        max: u32,
    },
    /// T2: Chaos stakes once a cycle.
    StakeSet,
    /// T3: the card is not in the seat's hand.
    NotInHand(u8),
    /// T4: no flame to quench, or no stake to quench with.
    NothingToQuench,
    /// T5: the seat rallied this cycle already.
    AlreadyRallied(u8),
    /// T3, T5: only the Eladrins do this.
    EladrinsOnly,
    /// T2, T4: only Chaos does this.
    ChaosOnly,
}

impl ChapterRefusal for TrialRefusal {
    fn rule(&self) -> &'static str {
        match self {
            TrialRefusal::StakeRange { .. } | TrialRefusal::StakeSet => "T2",
            TrialRefusal::NotInHand(_) => "T3",
            TrialRefusal::NothingToQuench => "T4",
            TrialRefusal::AlreadyRallied(_) => "T5",
            TrialRefusal::EladrinsOnly => "T3",
            TrialRefusal::ChaosOnly => "T2",
        }
    }
}

/// The most Chaos may stake (T2).
pub const MAX_STAKE: u32 = 3;

impl ChapterAction for TrialAction {
    type Refusal = TrialRefusal;
    type Event = ();
    const CHAPTER: &'static str = ID;
    fn place(&self) -> Place {
        match self {
            // A decision: it does not pass any turn.
            TrialAction::Stake(_) => Place {
                steps: &["TBID"],
                turn: TurnUse::Free,
                in_activation: false,
            },
            TrialAction::Play { .. } | TrialAction::Quench => Place::acts(&["TCOUNCIL"]),
            TrialAction::Rally => Place::acts(&["R9"]),
        }
    }
    fn validate(&self, world: &mut World, by: Camp) -> Result<(), TrialRefusal> {
        let t = world.resource::<Trial>();
        let seat = chapter::current_seat(world);
        match self {
            TrialAction::Stake(n) => {
                if by != Camp::Chaos {
                    return Err(TrialRefusal::ChaosOnly);
                }
                if t.stake > 0 {
                    return Err(TrialRefusal::StakeSet);
                }
                if !(1..=MAX_STAKE).contains(n) {
                    return Err(TrialRefusal::StakeRange { max: MAX_STAKE });
                }
                Ok(())
            }
            TrialAction::Play { card } => {
                if by != Camp::Eladrins {
                    return Err(TrialRefusal::EladrinsOnly);
                }
                let held = t.hands.get(&seat).is_some_and(|h| h.contains(card));
                if !held || *card == HIDDEN {
                    return Err(TrialRefusal::NotInHand(*card));
                }
                Ok(())
            }
            TrialAction::Quench => {
                if by != Camp::Chaos {
                    return Err(TrialRefusal::ChaosOnly);
                }
                if t.stake == 0 || total(world) == 0 {
                    return Err(TrialRefusal::NothingToQuench);
                }
                Ok(())
            }
            TrialAction::Rally => {
                if by != Camp::Eladrins {
                    return Err(TrialRefusal::EladrinsOnly);
                }
                if t.rallied.contains(&seat) {
                    return Err(TrialRefusal::AlreadyRallied(seat));
                }
                Ok(())
            }
        }
    }
    fn apply(&self, world: &mut World, _by: Camp) {
        let seat = chapter::current_seat(world);
        match self {
            TrialAction::Stake(n) => world.resource_mut::<Trial>().stake = *n,
            TrialAction::Play { card } => {
                let mut t = world.resource_mut::<Trial>();
                if let Some(h) = t.hands.get_mut(&seat)
                    && let Some(i) = h.iter().position(|c| c == card)
                {
                    h.remove(i);
                }
                tracks::add(world, FLAME, Holder::Seat(seat), *card as i32);
            }
            TrialAction::Quench => {
                let stake = world.resource::<Trial>().stake as i32;
                // The highest flame, the lowest seat on a tie (a stable choice).
                let top = (0..chapter::seats(world))
                    .max_by_key(|s| (flame(world, *s), std::cmp::Reverse(*s)));
                if let Some(s) = top {
                    tracks::add(world, FLAME, Holder::Seat(s), -stake);
                }
            }
            TrialAction::Rally => {
                world.resource_mut::<Trial>().rallied.push(seat);
                tracks::add(world, FLAME, Holder::Seat(seat), 1);
            }
        }
    }
    fn candidates(world: &mut World, by: Camp) -> Vec<Self> {
        let t = world.resource::<Trial>();
        let mut v = Vec::new();
        match (world.step_id(), by) {
            ("TBID", Camp::Chaos) => v.extend((1..=MAX_STAKE).map(TrialAction::Stake)),
            ("TCOUNCIL", Camp::Eladrins) => {
                let seat = chapter::current_seat(world);
                let mut cards = t.hands.get(&seat).cloned().unwrap_or_default();
                cards.sort();
                cards.dedup();
                v.extend(cards.into_iter().map(|card| TrialAction::Play { card }));
            }
            ("TCOUNCIL", Camp::Chaos) => v.push(TrialAction::Quench),
            ("R9", Camp::Eladrins) => v.push(TrialAction::Rally),
            _ => {}
        }
        v
    }
}

/// T1: each seat draws up to its hand; a new stake and new rallies each cycle.
fn draw_cards(world: &mut World) {
    let level = chapter::level_fields::<TrialLevel>(world);
    {
        let mut t = world.resource_mut::<Trial>();
        t.stake = 0;
        t.rallied.clear();
    }
    deal(world, level.hand as usize, false);
}

/// The hook `deal` (`Effect::Hook { chapter: "trial", hook: "deal", arg }` in a card): every
/// seat draws `arg` more cards.
fn hook(world: &mut World, hook: &str, arg: i32, _at: Option<hexx::Hex>) {
    if hook == "deal" {
        deal(world, arg.clamp(0, 10) as usize, true);
    }
}

/// Each seat draws until it holds `n` cards (`more`: draws `n` more).
fn deal(world: &mut World, n: usize, more: bool) {
    let full = full_deck(&world.content());
    let seats = chapter::seats(world);
    world.resource_scope(|world, mut t: Mut<Trial>| {
        for seat in 0..seats {
            let want = if more {
                t.hands.get(&seat).map_or(0, Vec::len) + n
            } else {
                n
            };
            while t.hands.get(&seat).map_or(0, Vec::len) < want.min(100) {
                if t.deck.is_empty() {
                    if full.is_empty() {
                        return;
                    }
                    let mut deck = full.clone();
                    world.resource_mut::<GameRng>().shuffle(&mut deck);
                    t.deck = deck;
                }
                let Some(card) = t.deck.pop() else {
                    return;
                };
                t.hands.entry(seat).or_default().push(card);
            }
        }
    });
}

/// T2: the stake is open until Chaos sets it.
fn no_stake(world: &mut World) -> bool {
    world.resource::<Trial>().stake == 0
}

/// T6 also ends the council.
fn beacon_lit(world: &mut World) -> bool {
    let goal = chapter::level_fields::<TrialLevel>(world).goal;
    goal > 0 && total(world) >= goal as i32
}

/// T6: the beacon lit wins for the Eladrins.
fn victory(world: &mut World) -> Option<(Camp, EndReason)> {
    beacon_lit(world).then(|| {
        (
            Camp::Eladrins,
            EndReason::Chapter {
                chapter: ID.into(),
                code: "beacon_lit".into(),
            },
        )
    })
}

/// The trial chapter's plugin: every seam it uses, in one place.
pub fn build(app: &mut App) {
    app.add_chapter_state::<Trial>()
        .add_chapter_actions::<TrialAction>()
        .add_chapter_step(StepDef {
            id: "TDRAW",
            title: "Draw",
            kind: StepKind::Automatic,
        })
        .add_chapter_step(StepDef {
            id: "TBID",
            title: "Chaos stakes",
            kind: StepKind::Decision {
                by: Who::Chaos,
                open: no_stake,
            },
        })
        .add_chapter_step(StepDef {
            id: "TCOUNCIL",
            title: "Council",
            kind: StepKind::Round {
                among: Among::SeatsThenChaos,
                ends: Some(beacon_lit),
            },
        })
        .add_systems(StepSchedule("TDRAW"), draw_cards)
        .add_chapter_victory(ID, victory)
        .add_chapter_hook(ID, hook)
        .add_chapter_scorer(ID, Camp::Eladrins, play_best)
        .add_chapter_scorer(ID, Camp::Eladrins, rally)
        .add_chapter_scorer(ID, Camp::Chaos, stake_most)
        .add_chapter_scorer(ID, Camp::Chaos, quench);
}

fn proposal(legal: &[Action], want: impl Fn(&TrialAction) -> Option<i64>) -> Option<Choice> {
    legal
        .iter()
        .filter_map(|a| chapter::decode::<TrialAction>(a).map(|t| (a, t)))
        .filter_map(|(a, t)| want(&t).map(|s| (s, a)))
        .max_by_key(|(s, _)| *s)
        .map(|(score, a)| Choice {
            score,
            action: a.clone(),
            why: "trial",
        })
}

/// Eladrins: the highest card of the hand (T3).
fn play_best(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = ai::weight(world, ID, "play");
    proposal(legal, |t| match t {
        TrialAction::Play { card } => Some(w * *card as i64),
        _ => None,
    })
}

/// Eladrins: rally when it can (T5).
fn rally(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = ai::weight(world, ID, "rally");
    proposal(legal, |t| (*t == TrialAction::Rally).then_some(w))
}

/// Chaos: the highest stake (T2).
fn stake_most(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = ai::weight(world, ID, "stake");
    proposal(legal, |t| match t {
        TrialAction::Stake(n) => Some(w * *n as i64),
        _ => None,
    })
}

/// Chaos: quench once the beacon is half lit (T4). It thinks on what Chaos may know: the
/// hands it sees are blank (`Trial::seen_by`).
fn quench(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let goal = chapter::level_fields::<TrialLevel>(world).goal;
    let t = world.resource::<Trial>();
    SEEN_BY_CHAOS.with(|s| s.borrow_mut().push(t.hands.clone()));
    if total(world) * 2 < goal as i32 {
        return None;
    }
    let w = ai::weight(world, ID, "quench");
    proposal(legal, |t| (*t == TrialAction::Quench).then_some(w))
}

thread_local! {
    /// The hands the Chaos scorer saw, for the test that Chaos never sees a hidden card.
    pub static SEEN_BY_CHAOS: std::cell::RefCell<Vec<BTreeMap<u8, Vec<u8>>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

thread_local! {
    /// The hands the panel was given to draw, for the test that a seat's panel never shows a
    /// partner's card.
    pub static SEEN_BY_PANEL: std::cell::RefCell<Vec<BTreeMap<u8, Vec<u8>>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The chapter's panel (`view::chapter_panel`): the hand of the seat at the screen, a button
/// per card it may play now (T3), and the partners' hands face down. It is handed the state
/// as that seat sees it: the partners' cards are blanks here already.
fn hand_panel(ui: &mut egui::Ui, t: &Trial, cx: &PanelCx) -> Option<Action> {
    SEEN_BY_PANEL.with(|s| s.borrow_mut().push(t.hands.clone()));
    let tr = cx.tr;
    let mut asked = None;
    ui.heading(tr.t("Your hand"));
    let hand = t.hands.get(&cx.seat).cloned().unwrap_or_default();
    if hand.is_empty() {
        ui.label(tr.t("No card"));
    }
    ui.horizontal_wrapped(|ui| {
        for card in hand {
            let play = chapter::encode(&TrialAction::Play { card });
            let legal = cx.legal.contains(&play);
            let b = ui.add_enabled(legal, egui::Button::new(tr.f("Card {}", &[&card])));
            if b.on_hover_text(tr.f("Play a card of {}", &[&card]))
                .clicked()
            {
                asked = Some(play);
            }
        }
    });
    for (seat, cards) in &t.hands {
        if *seat == cx.seat {
            continue;
        }
        let who = cx.players.get(*seat as usize).cloned().unwrap_or_default();
        let n = cards.len();
        ui.label(tr.p(
            "{}: {} card, face down|{}: {} cards, face down",
            n as u64,
            &[&who, &n],
        ));
    }
    ui.label(tr.f("Deck: {}", &[&t.deck.len()]));
    asked
}

fn action_words(tr: &Translations, act: &ChapterValue) -> String {
    match act.get::<TrialAction>() {
        Some(TrialAction::Stake(n)) => tr.f("Stake {}", &[&n]),
        Some(TrialAction::Play { card }) => tr.f("Play a card of {}", &[&card]),
        Some(TrialAction::Quench) => tr.t("Quench the highest flame").into_owned(),
        Some(TrialAction::Rally) => tr.t("Rally: +1 flame").into_owned(),
        None => act.to_string(),
    }
}

fn refusal_words(tr: &Translations, reason: &ChapterValue) -> String {
    match reason.get::<TrialRefusal>() {
        Some(TrialRefusal::NotInHand(_)) => tr.t("T3: that card is not in your hand").into_owned(),
        Some(TrialRefusal::StakeRange { max }) => tr.f("T2: a stake is 1 to {}", &[&max]),
        Some(TrialRefusal::StakeSet) => tr.t("T2: Chaos has staked this cycle").into_owned(),
        Some(TrialRefusal::NothingToQuench) => tr.t("T4: no flame to quench").into_owned(),
        Some(TrialRefusal::AlreadyRallied(_)) => {
            tr.t("T5: this seat rallied this cycle").into_owned()
        }
        Some(TrialRefusal::EladrinsOnly) => tr.t("T3: only the Eladrins do this").into_owned(),
        Some(TrialRefusal::ChaosOnly) => tr.t("T2: only Chaos does this").into_owned(),
        None => reason.to_string(),
    }
}

fn end_words(tr: &Translations, _code: &str) -> String {
    tr.t("The beacon is lit (T6)").into_owned()
}

/// The chapter as a program passes it: its content (its catalogue and level fields), its
/// rules and words, and its panel.
pub struct TrialChapter;

impl Chapter for TrialChapter {
    fn id(&self) -> &'static str {
        ID
    }
    fn content(&self, content: &mut ChapterContent) {
        content.register::<Spark>(SchemaSource {
            path: "tests/rules/trial.rs",
            text: include_str!("trial.rs"),
            types: &["Spark"],
        });
        content.level_fields::<TrialLevel>();
        content.tracks(ID, &[FLAME]);
    }
    fn build(&self, app: &mut App) {
        build(app);
        app.add_chapter_words(
            ID,
            ChapterWords {
                action: action_words,
                refusal: refusal_words,
                end: end_words,
                event: |_, what| what.to_string(),
            },
        );
    }
    fn build_view(&self, app: &mut App) {
        app.add_chapter_panel::<Trial>(ID, hand_panel);
    }
}

/// The chapters the game ships, and this one.
pub fn chapters() -> ChapterSet {
    chaos_outpost::chapters::shipped().with(TrialChapter)
}

/// The chapter's content folder (a mod folder: its level and AI weights).
pub fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/chapters/trial")
}

/// The base game with the chapter's content, for the shipped chapters and this one.
pub fn content() -> Arc<ContentDb> {
    let src = mods::read_mod(&folder()).unwrap_or_else(|p| panic!("trial folder: {p}"));
    let (db, report) = mods::load(embedded_files(), &[src], &chapters())
        .unwrap_or_else(|ps| panic!("the base game must load: {ps:?}"));
    assert_eq!(report.errors(), 0, "{}", report.text());
    Arc::new(db)
}
