/*
 * Shared state of meridian-test-compositor: a small headless wlroots 0.15 compositor
 * that Meridian's end-to-end tests drive through a line protocol on stdin.
 * See docs/TEST-COMPOSITOR.md for the command language and the quirks behind the design.
 */
#ifndef MERIDIAN_TEST_COMPOSITOR_H
#define MERIDIAN_TEST_COMPOSITOR_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct wlr_backend;
struct wlr_renderer;
struct wlr_allocator;
struct wlr_scene;
struct wlr_scene_rect;
struct wlr_scene_output;
struct wlr_output;
struct wlr_output_layout;
struct wlr_xdg_shell;
struct wlr_xdg_surface;
struct wlr_scene_node;
struct wlr_seat;
struct wlr_input_device;
struct wlr_pointer_gestures_v1;
struct wlr_buffer;
struct wlr_surface;
struct wlr_presentation;
struct wlr_text_input_manager_v3;
struct wlr_surface;

/** Highest touch id the compositor tracks; wl_touch ids in tests are small. */
#define MAX_TOUCH_POINTS 32

/** One xdg toplevel, with the scene node that draws it. */
struct view {
	struct wl_list link; /* server.views */
	struct server *server;
	struct wlr_xdg_surface *xdg;
	struct wlr_scene_node *node;
	bool mapped;
	int64_t commit_ns; /* CLOCK_MONOTONIC of its latest commit, for presentation feedback */
	bool attached;     /* a wl_surface.attach of a buffer since its last commit */
	struct wl_listener map, unmap, destroy, commit;
};

/** A touch point the command language put down, with where its surface sat at `down`. */
struct touch_origin {
	bool down;
	double ox, oy; /* layout position of the surface origin at down time */
};

/** What a waiting command waits for; commands after it queue until it ends. */
enum wait_kind {
	WAIT_NONE,
	WAIT_MAP,
	WAIT_COMMIT,
	WAIT_IDLE,
	WAIT_FRAME,
	WAIT_SLEEP,
	WAIT_BURST, /* configure-burst: answers when its last configure went out */
	WAIT_SYNC,  /* wait-sync: the newest toplevel's client answered an xdg_wm_base.ping */
};

struct server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_scene_rect *background;
	struct wlr_output_layout *layout;
	struct wlr_output *output; /* NULL after output-remove */
	struct wlr_scene_output *scene_output;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_pointer_gestures_v1 *gestures;
	struct wlr_seat *seat;
	struct wlr_input_device *keyboard;
	struct wl_list views;

	struct wl_listener new_output, output_frame, output_destroy;
	struct wl_listener new_xdg_surface, new_decoration;
	struct wl_listener keyboard_key, keyboard_modifiers;

	/* zwp_text_input_v3: the compositor is the input method (text-input.c). */
	struct wlr_text_input_manager_v3 *text_input_manager;
	struct wl_list text_inputs;
	struct wl_listener new_text_input;
	uint64_t text_input_enables, text_input_disables, text_input_commits;

	/* Options. */
	int width, height, scale;
	int refresh_hz; /* -R: the output's refresh; vblanks tick on a fixed CLOCK_MONOTONIC grid */
	bool kiosk, verbose;
	bool ready;    /* "ready" printed: events before it are not reported */
	bool quitting; /* "quit" answered: teardown events are not reported */
	const char *socket;

	/* Input state. */
	struct touch_origin touches[MAX_TOUCH_POINTS];
	bool pointer_autoframe;
	bool touch_frames; /* off: `frame` sends no wl_touch.frame (cage 0.1.4 never does) */

	/* The vblank grid: a timerfd at epoch + n * period drives compositing, frame callbacks and
	 * presentation feedback (the headless backend's own frame timer is ms-granular and restarts
	 * at each commit, so it drifts against any fixed refresh). */
	struct wlr_presentation *presentation;
	int vblank_fd;
	uint64_t vblank_seq;
	int64_t vblank_epoch_ns, vblank_period_ns;
	struct wl_event_source *vblank_source;

	/* Counters the wait commands and `commits` read. */
	uint64_t commits;        /* commits of toplevel surfaces, ever */
	uint64_t frames;         /* output frame events handled */
	uint64_t last_commit_ms; /* monotonic time of the last toplevel commit */

	/* Commits that attached a buffer (a new frame), as opposed to bare commits (an ack, say). */
	uint64_t buffer_commits;
	uint64_t buffers_this_refresh; /* since the vblank that last answered frame callbacks */
	uint64_t most_buffers_per_refresh;
	uint64_t empty_damage_buffers; /* of those, the ones whose damage was empty: a wasted frame */
	int last_buffer_width, last_buffer_height; /* the newest buffer, in buffer pixels */
	int last_surface_width, last_surface_height; /* the surface's logical size it gave */

	/* configure-burst: N configures, one every interval, sizes from (w0,h0) to (w1,h1). */
	struct wl_event_source *burst_timer;
	long burst_total, burst_sent, burst_interval_ms;
	long burst_w0, burst_h0, burst_w1, burst_h1;

	/* hold-buffers: frame callbacks are not answered and buffers stay locked. */
	bool hold_buffers;
	/* MERIDIAN_TC_NO_COMPOSITE=1 at start-up (a measurement aid, docs/TEST-COMPOSITOR.md): the
	 * vblanks never render the output; callbacks and presentation feedback go on as before. */
	bool no_composite;
	struct wlr_buffer **held;
	size_t held_count, held_capacity;

	/* Command queue and the wait in progress. */
	char *queue;
	size_t queue_len, queue_cap;
	bool input_closed;     /* stdin reached EOF or the script ended */
	bool quit_after_queue; /* quit once the queue is empty and input closed */
	enum wait_kind wait;
	char *wait_command;    /* the command line being waited on, for its answer */
	uint64_t wait_start_ms, wait_deadline_ms, wait_quiet_ms;
	uint64_t wait_commits, wait_frames;
	struct wl_event_source *stdin_source, *wait_timer, *idle;
};

/* Time. */
uint64_t now_ms(void);
int64_t now_ns(void);

/* Output: meridian-test-compositor.c / output.c */
void output_setup(struct server *s);
bool output_add(struct server *s);
void output_remove(struct server *s);
bool output_set_scale(struct server *s, int scale);
bool output_screenshot(struct server *s, const char *path, char *why, size_t why_len);
void output_layout_changed(struct server *s);
bool output_start_vblanks(struct server *s);

/* Shell: shell.c */
void shell_setup(struct server *s);
struct view *shell_top_view(struct server *s);
bool shell_any_mapped(struct server *s);
size_t shell_view_count(struct server *s, bool mapped_only);
size_t shell_unacked_configures(struct server *s);
void shell_configure_all(struct server *s);
void shell_send_enter_all(struct server *s);
void shell_hold_current_buffers(struct server *s);
void shell_release_held_buffers(struct server *s);

/* Input: input.c */
void input_setup(struct server *s);
/* zwp_input_timestamps_manager_v1 (input-timestamps.c): the global, and the full-resolution
 * time `ns` (CLOCK_MONOTONIC) sent to `client`'s touch subscriptions before a touch event. */
void input_timestamps_setup(struct server *s);
void input_timestamps_touch(struct wl_client *client, int64_t ns);
/* Each returns true on success, or false with a reason written into why. */
bool input_touch_down(struct server *s, int id, double x, double y, char *why, size_t n);
bool input_touch_motion(struct server *s, int id, double x, double y, char *why, size_t n);
bool input_touch_up(struct server *s, int id, char *why, size_t n);
void input_touch_frame(struct server *s);
bool input_touch_cancel(struct server *s, char *why, size_t n);
int input_touch_count(struct server *s);
bool input_pointer_move(struct server *s, double x, double y, char *why, size_t n);
bool input_pointer_button(struct server *s, uint32_t code, bool pressed, char *why, size_t n);
bool input_pointer_axis(struct server *s, bool vertical, double value, int discrete, bool has_discrete,
	char *why, size_t n);
void input_pointer_frame(struct server *s);
bool input_key(struct server *s, uint32_t code, bool pressed, char *why, size_t n);
bool input_set_caps(struct server *s, const char *list, char *why, size_t n);
bool input_pinch_begin(struct server *s, uint32_t fingers, char *why, size_t n);
bool input_pinch_update(struct server *s, double dx, double dy, double scale, double rotation,
	char *why, size_t n);
bool input_pinch_end(struct server *s, bool cancelled, char *why, size_t n);
void input_focus_view(struct server *s, struct view *view);
const char *input_caps_string(struct server *s, char *buf, size_t n);
bool input_pointer_has_focus(struct server *s);

/* Text input: text-input.c */
void text_input_setup(struct server *s);
/* Gives the text inputs of surface's client text-input focus (NULL: none). */
void text_input_focus(struct server *s, struct wlr_surface *surface);
/* what: "preedit" (text, cursor a..b), "commit" (text) or "delete" (a bytes before, b after); then done. */
bool text_input_send(struct server *s, const char *what, const char *text, long a, long b, char *why, size_t n);
void text_input_status(struct server *s, char *out, size_t n);

/* Commands: commands.c */
void commands_setup(struct server *s, const char *script);
void commands_feed(struct server *s, const char *data, size_t len);
void commands_kick(struct server *s);
void commands_poll_waits(struct server *s);

/* Processes: spawn a shell command as a client of this compositor. */
bool spawn_client(struct server *s, const char *command);

/* Output lines on stdout, flushed at once: answers and events. */
void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
