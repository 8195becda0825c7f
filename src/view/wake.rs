//! Timers that end while the window rests (`rest`): a card put away after 8 s, the settings
//! written half a second after a change. Each asks for a wake at its end (`Wake::at`); a small
//! thread sleeps until then and wakes the window, which the slow tick alone would do up to 2 s
//! late. (egui's own delayed repaints, a tooltip's, need none: bevy_egui redraws at once for
//! any repaint egui asks while it draws anything.) Such timers read the wall clock
//! (`Instant::now`): the game's clock (`Time`) moves at most a quarter of a second an update,
//! and `Time<Real>` is when the render world finished the frame before, so after a rest both
//! lag it by the rest. Nothing of the view is imported here: any panel may ask for a wake.

use std::sync::mpsc;
use std::time::Instant;

use bevy::prelude::*;

/// The earliest time the window must wake this frame asked for; asked anew each frame by
/// whatever waits (`at`), and kept by a thread that wakes the window then if nothing else did.
#[derive(Resource, Default)]
pub struct Wake {
    next: Option<Instant>,
    /// The thread's end of the line, started with the first wake asked in a window.
    timer: Option<mpsc::Sender<Instant>>,
    /// The last wake handed to the thread (not sent again each frame).
    sent: Option<Instant>,
}

impl Wake {
    /// Wake the window at `at` at the latest.
    pub fn at(&mut self, at: Instant) {
        self.next = Some(self.next.map_or(at, |n| n.min(at)));
    }
}

/// A thread that sleeps until the latest wake it was given, then calls `wake` (in the game,
/// winit's user event, which a reactive window updates on); a newer wake replaces it. It ends
/// when the sender is dropped (the app, and its `Wake`, gone).
fn start_timer(wake: impl Fn() + Send + 'static) -> Option<mpsc::Sender<Instant>> {
    let (tx, rx) = mpsc::channel::<Instant>();
    std::thread::Builder::new()
        .name(String::from("wake timer"))
        .spawn(move || {
            let mut due: Option<Instant> = None;
            loop {
                due = match due {
                    None => match rx.recv() {
                        Ok(at) => Some(at),
                        Err(_) => return,
                    },
                    Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now()))
                    {
                        Ok(new) => Some(new),
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            wake();
                            None
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    },
                };
            }
        })
        .ok()
        .map(|_| tx)
}

/// At rest (`rest::keep_awake`), the wake asked for this frame goes to the timer thread
/// (once, not each frame); the next frame asks again.
pub(super) fn hand_to_timer(world: &mut World, resting: bool) {
    let Some(mut wake) = world.get_resource_mut::<Wake>() else {
        return;
    };
    let Some(at) = wake.next.take().filter(|_| resting) else {
        return;
    };
    if wake.sent == Some(at) {
        return;
    }
    // The thread starts with the first wake, given winit's proxy (none headless).
    let proxy = wake
        .timer
        .is_none()
        .then(|| world.get_resource::<bevy::winit::EventLoopProxyWrapper>())
        .flatten()
        .map(|p| (**p).clone());
    let mut wake = world.resource_mut::<Wake>();
    if let Some(p) = proxy {
        wake.timer = start_timer(move || {
            let _ = p.send_event(bevy::winit::WinitUserEvent::WakeUp);
        });
    }
    if let Some(tx) = &wake.timer
        && tx.send(at).is_ok()
    {
        wake.sent = Some(at);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The timer calls its wake at the time last given, not before, and once; a newer time
    /// replaces the one it slept towards.
    #[test]
    fn the_wake_timer_wakes_at_the_time_last_given() {
        let (woke, wakes) = mpsc::channel::<Instant>();
        let tx = start_timer(move || {
            let _ = woke.send(Instant::now());
        })
        .expect("the timer thread starts");
        let start = Instant::now();
        tx.send(start + Duration::from_millis(400)).expect("sent");
        // Replaced by a sooner one.
        tx.send(start + Duration::from_millis(100)).expect("sent");
        let first = wakes
            .recv_timeout(Duration::from_secs(5))
            .expect("woken once");
        let after = first.duration_since(start);
        assert!(
            after >= Duration::from_millis(100) && after < Duration::from_millis(350),
            "woken after {after:?}, not at 100 ms"
        );
        assert!(
            wakes.recv_timeout(Duration::from_millis(600)).is_err(),
            "woken again with nothing asked"
        );
        // A time already past wakes at once.
        tx.send(Instant::now()).expect("sent");
        assert!(wakes.recv_timeout(Duration::from_secs(1)).is_ok());
    }
}
