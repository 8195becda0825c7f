//! The program's folders: where saves and installed mods live (the platform's data directory),
//! where the settings live (its config directory), found with the `directories` crate, and the
//! folder the window reads its assets from.

use std::path::PathBuf;

/// The program's name in the platform's folders.
const APP: &str = "chaos-outpost";

/// Where saves and installed mods live: `~/.local/share/chaos-outpost` on Linux, `.` when the
/// platform has no such folder.
pub fn data_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", APP)
        .map(|d| d.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Where the settings live: `~/.config/chaos-outpost` on Linux, `None` when the platform has no
/// such folder.
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", APP).map(|d| d.config_dir().to_path_buf())
}

/// The folder Bevy reads assets from, found the way Bevy finds it: `BEVY_ASSET_ROOT`, else the
/// crate folder under `cargo run`, else the executable's folder.
pub fn asset_root() -> Option<PathBuf> {
    let base = std::env::var_os("BEVY_ASSET_ROOT")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
        .or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|p| p.parent().map(|d| d.to_path_buf()))
        })?;
    Some(base.join("assets"))
}
