"""Icon mapping for Chaos Outpost: game id -> (game-icons.net name, author folder).

All icons come from game-icons.net (CC BY 3.0), via the npm package
`@iconify-json/game-icons`. The iconify JSON has no per-icon author field, so the author
of each icon (the folder it lives in on game-icons.net, e.g.
https://game-icons.net/1x1/lorc/wheat.html) is recorded here by hand. When you add or
swap an icon, look up its page on game-icons.net and record the author folder.
"""

# id (file name without .png) -> (game-icons name, author folder, why / what it shows)
ICONS = [
    # resources
    ("res_food", "wheat", "lorc", "wheat ears"),
    ("res_wood", "wood-pile", "delapouite", "stacked logs"),
    ("res_stone", "stone-block", "lorc", "cut stone block"),
    ("res_psara", "tropical-fish", "delapouite", "a fish (psara)"),
    ("res_sand", "powder", "lorc", "a heap of sand"),
    ("res_crystal", "crystal-growth", "lorc", "crystal cluster"),
    # Eladrin units
    ("unit_ranger", "bowman", "lorc", "archer drawing a bow"),
    ("unit_warden", "visored-helm", "lorc", "closed knight helm"),
    ("unit_arcanist", "wizard-face", "delapouite", "wizard with hat"),
    ("unit_settler", "old-wagon", "delapouite", "covered wagon"),
    ("unit_builder", "hammer-nails", "lorc", "hammer and nails"),
    ("unit_healer", "healing", "delapouite", "figure with healing crosses"),
    ("unit_golem", "rock-golem", "delapouite", "stone golem"),
    ("unit_wyvern_rider", "wyvern", "lorc", "wyvern (no rider icon exists)"),
    ("unit_boat", "sailboat", "delapouite", "sailboat"),
    # Chaos units
    ("unit_husk", "shambling-zombie", "delapouite", "shambling husk"),
    ("unit_imp", "imp", "lorc", "winged imp"),
    ("unit_chaos_hound", "hound", "lorc", "hound head"),
    ("unit_abomination", "gooey-daemon", "lorc", "dripping daemon face"),
    ("unit_rift_spawn", "alien-bug", "delapouite", "insectoid spawn"),
    ("unit_corrupted_warden", "brutal-helm", "carl-olsen", "horned brutal helm (the warden's helm, corrupted)"),
    # buildings
    ("bld_laboratory", "round-bottom-flask", "lorc", "alchemy flask"),
    ("bld_granary", "granary", "delapouite", "granary"),
    ("bld_warehouse", "warehouse", "delapouite", "warehouse"),
    ("bld_watch_walls", "defensive-wall", "heavenly-dog", "crenellated wall"),
    ("bld_town_hall", "capitol", "lorc", "domed hall"),
    ("bld_beacon", "fire-bowl", "lorc", "brazier / signal fire"),
    ("bld_workshop", "anvil", "lorc", "anvil"),
    ("bld_smokehouse", "fish-smoking", "delapouite", "fish hanging in smoke"),
    ("bld_crystal_refinery", "crystal-bars", "lorc", "refined crystal bars"),
    ("bld_observatory", "observatory", "delapouite", "observatory dome"),
    ("bld_temple", "greek-temple", "delapouite", "columned temple"),
    ("bld_barracks", "medieval-barracks", "delapouite", "barracks"),
    # improvements
    ("imp_farm", "barn", "delapouite", "barn"),
    ("imp_lumber_camp", "axe-in-stump", "lorc", "axe in a stump"),
    ("imp_quarry", "mining", "lorc", "pickaxe on rock"),
    ("imp_psara_pond", "circling-fish", "delapouite", "fish circling in a pond"),
    ("imp_sand_pit", "trench-spade", "skoll", "spade"),
    ("imp_crystal_mine", "gold-mine", "delapouite", "mine entrance with cart"),
    ("imp_watchtower", "watchtower", "delapouite", "wooden watchtower"),
    ("imp_orchard", "fruit-tree", "delapouite", "fruit tree"),
    # misc / UI
    ("ui_outpost", "tower-flag", "delapouite", "tower with flag (generic outpost)"),
    ("ui_outpost_camp", "camping-tent", "delapouite", "tent (camp size)"),
    ("ui_outpost_village", "village", "delapouite", "houses (village size)"),
    ("ui_outpost_citadel", "castle", "lorc", "castle (citadel size)"),
    ("ui_portal", "magic-portal", "lorc", "the portal"),
    ("ui_rift", "earth-crack", "lorc", "rift: the ground cracking open"),
    ("ui_dice", "rolling-dices", "delapouite", "two dice"),
    ("ui_hourglass", "hourglass", "lorc", "hourglass"),
    ("ui_famine", "ribcage", "lorc", "ribcage (starvation)"),
    ("ui_research", "open-book", "lorc", "open book"),
    ("ui_artifact", "glowing-artifact", "delapouite", "glowing artifact"),
    ("ui_sword", "broadsword", "lorc", "sword (attack)"),
    ("ui_shield", "shield", "sbed", "shield (defence)"),
    ("ui_heart", "hearts", "skoll", "heart (hit points)"),
    ("ui_footprint", "footprint", "lorc", "footprint (move / action points)"),
    ("ui_time_marker", "sands-of-time", "lorc", "sand clock (time marker)"),
    ("ui_card", "card-random", "faithtoken", "cards (event deck)"),
    # extras: camp badges and corruption
    ("ui_eladrin", "woman-elf-face", "delapouite", "Eladrin camp badge"),
    ("ui_chaos", "daemon-skull", "lorc", "Chaos camp badge"),
    ("ui_corruption", "tentacles-skull", "lorc", "corruption"),
]

# The logo composites this icon (white silhouette) over a procedural badge.
LOGO_ICON = ("tower-flag", "delapouite")

AUTHORS = {
    "lorc": ("Lorc", "https://lorcblog.blogspot.com"),
    "delapouite": ("Delapouite", "https://delapouite.com"),
    "carl-olsen": ("Carl Olsen", "https://twitter.com/unstoppableCarl"),
    "sbed": ("Sbed", "https://opengameart.org/content/95-game-icons"),
    "skoll": ("Skoll", "https://game-icons.net"),
    "heavenly-dog": ("HeavenlyDog", "http://www.gnomosygoblins.blogspot.com"),
    "faithtoken": ("Faithtoken", "https://fungustoken.deviantart.com"),
}
