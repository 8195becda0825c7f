//! A small scenario builder: a hexagon of neutral forest, outposts, armies, improvements, rifts,
//! content tweaks; then single steps run one at a time with scripted dice.

#![allow(dead_code)]

use std::sync::Arc;

use bevy::prelude::{App, World};
use chaos_outpost::content::*;
use chaos_outpost::rules::snapshot::state_hash;
use chaos_outpost::rules::version::Rules;
use chaos_outpost::rules::{
    Action, Army, Chronicle, Cycle, CycleOrder, GameEvent, GameRng, GameWorld, Outpost, Refusal,
    StepSchedule, Tile, setup, submit,
};
use hexx::Hex;

/// The base content, embedded, with the chapters the game ships installed (its levels play
/// them).
pub fn base() -> ContentDb {
    match ContentDb::embedded(&chaos_outpost::chapters::shipped()) {
        Ok(db) => db,
        Err(ps) => panic!("base content must load: {ps:?}"),
    }
}

/// A stock from pairs.
pub fn st(pairs: &[(Res, u32)]) -> Stock {
    let mut s = Stock::default();
    for (r, n) in pairs {
        s.add(*r, *n);
    }
    s
}

/// Builds a level and a game.
pub struct Builder {
    pub db: ContentDb,
    pub level: Level,
    seed: u64,
    rules: Rules,
}

impl Builder {
    /// A hexagon of `radius`, all forest (a terrain with no yield bonus, move cost 1).
    pub fn new(radius: u32) -> Builder {
        let terrain = Hex::ZERO
            .range(radius)
            .map(|h| ((h.x, h.y), "forest".to_string()))
            .collect();
        Builder {
            db: base(),
            level: Level {
                id: "test".into(),
                name: "Test".into(),
                description: String::new(),
                intro: String::new(),
                hints: false,
                difficulty: "normal".into(),
                map: MapDef::Generated { radius, seed: 1 },
                terrain,
                rifts: vec![],
                corrupted: vec![],
                outposts: vec![],
                improvements: vec![],
                armies: vec![],
                artifacts: vec![],
                lying: vec![],
                exclude_research: vec![],
                victory: Victory::default(),
                difficulty_tweaks: Default::default(),
                chapters: vec![],
                steps: None,
                seats: Default::default(),
                ext: Default::default(),
                ai: None,
            },
            seed: 7,
            rules: Rules::CURRENT,
        }
    }
    /// Plays under an older rules version (`rules::version`), as an old save or replay does.
    pub fn rules(mut self, version: u32) -> Self {
        self.rules = Rules(version);
        self
    }
    pub fn seed(mut self, s: u64) -> Self {
        self.seed = s;
        self
    }
    pub fn terrain(mut self, at: At, t: &str) -> Self {
        self.level.terrain.push((at, t.into()));
        self
    }
    /// The first outpost holds the portal.
    pub fn outpost(
        mut self,
        name: &str,
        at: At,
        size: &str,
        stock: Stock,
        buildings: &[&str],
    ) -> Self {
        let portal = self.level.outposts.is_empty();
        self.level.outposts.push(OutpostStart {
            name: name.into(),
            at,
            size: size.into(),
            stock,
            buildings: buildings.iter().map(|b| b.to_string()).collect(),
            portal,
            seat: None,
        });
        self
    }
    pub fn army(mut self, camp: Camp, at: At, units: &[&str]) -> Self {
        self.level.armies.push(ArmyStart {
            camp,
            at,
            units: units.iter().map(|u| u.to_string()).collect(),
            seat: None,
        });
        self
    }
    /// The last army or outpost placed belongs to this Eladrin seat.
    pub fn owned_by(mut self, seat: u8) -> Self {
        if let Some(a) = self.level.armies.last_mut() {
            a.seat = Some(seat);
        }
        self
    }
    /// The last outpost placed belongs to this Eladrin seat.
    pub fn outpost_owned_by(mut self, seat: u8) -> Self {
        if let Some(o) = self.level.outposts.last_mut() {
            o.seat = Some(seat);
        }
        self
    }
    pub fn improvement(mut self, at: At, id: &str) -> Self {
        self.level.improvements.push((at, id.into()));
        self
    }
    pub fn rift(mut self, at: At) -> Self {
        self.level.rifts.push(at);
        self
    }
    pub fn corrupted(mut self, at: At) -> Self {
        self.level.corrupted.push(at);
        self
    }
    pub fn artifact(mut self, at: At) -> Self {
        self.level.artifacts.push(at);
        self
    }
    pub fn lying(mut self, at: At, s: Stock) -> Self {
        self.level.lying.push((at, s));
        self
    }
    pub fn difficulty(mut self, d: &str) -> Self {
        self.level.difficulty = d.into();
        self
    }
    /// What wins this scenario's level beyond the portal (`victory`).
    pub fn victory(mut self, v: chaos_outpost::content::Victory) -> Self {
        self.level.victory = v;
        self
    }
    /// This level's own adjustment to a difficulty (`difficulty_tweaks`).
    pub fn tweak(mut self, difficulty: &str, t: chaos_outpost::content::DifficultyTweak) -> Self {
        self.level.difficulty_tweaks.insert(difficulty.into(), t);
        self
    }
    /// Changes the content for this scenario.
    pub fn with(mut self, f: impl FnOnce(&mut ContentSet)) -> Self {
        f(&mut self.db.set);
        self
    }
    /// Spawns the game at the start of cycle 1, no step run yet.
    pub fn build(mut self) -> Scn {
        if self.level.outposts.is_empty() {
            self = self.outpost("Home", (0, 0), "camp", Stock::default(), &[]);
        }
        let mut db = self.db;
        db.levels.insert("test".into(), self.level);
        // Content tweaks change the catalogs: rebuild the id indexes.
        db.reindex();
        let mut app = setup::headless_app(Arc::new(db));
        if let Err(e) =
            setup::spawn_game_under(app.world_mut(), "test", None, self.seed, self.rules)
        {
            panic!("scenario must spawn: {e}");
        }
        Scn { app }
    }
}

/// A running scenario.
pub struct Scn {
    pub app: App,
}

pub fn hex(at: At) -> Hex {
    Hex::new(at.0, at.1)
}

impl Scn {
    /// Puts the game at the start of `step` (the Eladrins' turn, nothing passed) and lets the
    /// driver enter it: a chapter's step tested on its own.
    pub fn enter_step(&mut self, step: &str) {
        let w = self.w();
        let i = w
            .resource::<chaos_outpost::rules::CycleOrder>()
            .position(step)
            .expect("the level plays it");
        {
            let mut c = w.resource_mut::<chaos_outpost::rules::Cycle>();
            c.step = i;
            c.entered = false;
            c.passes = 0;
            c.activation = None;
            c.turn = Camp::Eladrins;
        }
        w.resource_mut::<chaos_outpost::rules::StepDone>().0 = false;
        chaos_outpost::rules::advance(w);
    }
    pub fn w(&mut self) -> &mut World {
        self.app.world_mut()
    }
    /// Forces the next d6 results.
    pub fn dice(&mut self, faces: &[u8]) {
        self.w().resource_mut::<GameRng>().script(faces);
    }
    /// Puts the cycle at `step` and runs that step's schedule once (as the driver would).
    pub fn run(&mut self, step: &'static str) {
        self.at(step);
        self.w().run_schedule(StepSchedule(step));
    }
    /// Puts the cycle at `step` without running it (for actions of that step).
    pub fn at(&mut self, step: &'static str) {
        let i = self
            .w()
            .resource::<CycleOrder>()
            .position(step)
            .expect("known step");
        let mut c = self.w().resource_mut::<Cycle>();
        c.step = i;
        c.entered = true;
    }
    pub fn outpost(&mut self, name: &str) -> Outpost {
        let w = self.w();
        let mut q = w.query::<&Outpost>();
        q.iter(w)
            .find(|o| o.name == name)
            .cloned()
            .expect("outpost")
    }
    pub fn outpost_mut(&mut self, name: &str, f: impl FnOnce(&mut Outpost)) {
        let w = self.w();
        let mut q = w.query::<&mut Outpost>();
        for mut o in q.iter_mut(w) {
            if o.name == name {
                f(&mut o);
                return;
            }
        }
        panic!("no outpost {name}");
    }
    pub fn armies(&mut self) -> Vec<Army> {
        let w = self.w();
        let mut v: Vec<Army> = w.query::<&Army>().iter(w).cloned().collect();
        v.sort_by_key(|a| a.id);
        v
    }
    pub fn army_at(&mut self, at: At, camp: Camp) -> Option<Army> {
        self.armies()
            .into_iter()
            .find(|a| a.hex == hex(at) && a.camp == camp)
    }
    pub fn army_mut(&mut self, id: u32, f: impl FnOnce(&mut Army)) {
        let w = self.w();
        let e = w.army_by_id(id).expect("army");
        let mut a = w.get_mut::<Army>(e).expect("army");
        f(&mut a);
    }
    pub fn tile(&mut self, at: At) -> Tile {
        self.w().tile(hex(at)).cloned().expect("tile")
    }
    pub fn tile_mut(&mut self, at: At, f: impl FnOnce(&mut Tile)) {
        let mut t = self.w().tile_mut(hex(at)).expect("tile");
        f(&mut t);
    }
    pub fn submit(&mut self, a: Action) -> Result<(), Refusal> {
        submit(self.w(), Camp::Eladrins, a)
    }
    pub fn submit_as(&mut self, by: Camp, a: Action) -> Result<(), Refusal> {
        submit(self.w(), by, a)
    }
    /// Asserts an action by `by` is refused with `want` and changes nothing.
    pub fn refused_as(&mut self, by: Camp, a: Action, want: Refusal) {
        let before = self.hash();
        let got = self.submit_as(by, a.clone());
        assert_eq!(got, Err(want), "action {a:?}");
        assert_eq!(before, self.hash(), "a refused action must change nothing");
    }
    /// Army id at a hex for a camp.
    pub fn army_id(&mut self, at: At, camp: Camp) -> u32 {
        self.army_at(at, camp).map(|a| a.id).expect("army there")
    }
    pub fn hash(&mut self) -> u64 {
        state_hash(self.w())
    }
    pub fn events(&mut self) -> Vec<GameEvent> {
        self.w().resource::<Chronicle>().0.clone()
    }
    pub fn clear_events(&mut self) {
        self.w().resource_mut::<Chronicle>().0.clear();
    }
    /// Dice events that served the rule `what` (`R6.2`).
    pub fn rolls(&mut self, what: &str) -> Vec<(Vec<u8>, i32, bool)> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                GameEvent::Dice {
                    what: w,
                    dice,
                    target,
                    success,
                    ..
                } if w.rule() == what => Some((dice, target, success)),
                _ => None,
            })
            .collect()
    }
    /// Asserts an action is refused with `want` and changes nothing.
    pub fn refused(&mut self, a: Action, want: Refusal) {
        let before = self.hash();
        let got = self.submit(a.clone());
        assert_eq!(got, Err(want), "action {a:?}");
        assert_eq!(before, self.hash(), "a refused action must change nothing");
    }
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)
            .expect("read a source folder")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The base campaign (`chaos_outpost`) with a campaign state at `chapter`: after `before` was
/// won, these `(name, unit type)` veterans on the roster; cold when `before` is none.
pub fn base_campaign_at(
    db: &ContentDb,
    chapter: &str,
    before: Option<&str>,
    roster: &[(&str, &str)],
) -> (
    chaos_outpost::content::campaign::Campaign,
    chaos_outpost::rules::campaign::CampaignState,
) {
    use chaos_outpost::rules::campaign::{CampaignState, ChapterRecord, Veteran};
    let c = db
        .set
        .campaigns
        .iter()
        .find(|c| c.id == "chaos_outpost")
        .expect("the base campaign")
        .clone();
    let mut state = CampaignState::new(&c, db, "normal", 7, &[], Some(chapter)).expect("new");
    if let Some(b) = before {
        state.done.push(ChapterRecord {
            chapter: b.into(),
            won: true,
            cycles: 9,
            score: 100,
            ..Default::default()
        });
    }
    state.roster = roster
        .iter()
        .map(|(n, k)| Veteran {
            name: (*n).into(),
            kind: (*k).into(),
            wounds: 0,
            chapters: 1,
        })
        .collect();
    (c, state)
}

/// The base content with the shipped level `id`, whose level and chapter fields
/// (`ext[id]`, typed `T`) `edit` changes; the chapters installed.
pub fn with_chapter_level<T: serde::Serialize + serde::de::DeserializeOwned>(
    id: &str,
    edit: impl FnOnce(&mut Level, &mut T),
) -> ContentDb {
    let mut db = base();
    let mut level = db.levels.get(id).cloned().expect("the level ships");
    let mut ext: T = level
        .ext
        .get(id)
        .expect("its fields")
        .into_rust()
        .expect("they read");
    edit(&mut level, &mut ext);
    level.ext.insert(
        id.into(),
        ron::value::RawValue::from_rust(&ext).expect("they write"),
    );
    db.levels.insert(id.into(), level);
    // The levels' chapter fields are read when content is indexed.
    db.reindex();
    db
}

/// `chaos-outpost check FILE` on the shipped level file `levels/NAME.ron` edited by `edit`
/// (laid over the base content, as the command does): the edited text and the problems found
/// in that file.
pub fn check_edited_level(
    name: &str,
    edit: impl FnOnce(String) -> String,
) -> (String, Vec<Problem>) {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(format!("levels/{name}.ron"))).expect("level");
    let text = edit(text);
    let dir = std::env::temp_dir().join(format!(
        "chaos-outpost-edited-{name}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join(format!("{name}.ron"));
    std::fs::write(&file, &text).expect("write");
    let r = chaos_outpost::cli::check::check(
        std::slice::from_ref(&file),
        &[],
        &chaos_outpost::chapters::shipped(),
    );
    let _ = std::fs::remove_dir_all(&dir);
    let mine: Vec<Problem> = r
        .problems
        .into_iter()
        .filter(|p| p.file.ends_with(&format!("{name}.ron")))
        .collect();
    (text, mine)
}

/// The 1-based line of `text` where `needle` first stands.
pub fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` is not in the text"))
        + 1
}
