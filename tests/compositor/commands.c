/*
 * The command language: lines from stdin or a script, run one at a time from the event loop.
 * A wait command holds the queue until its condition or deadline; everything else answers at once.
 * The list of commands and their meaning is in the header of meridian-test-compositor.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/input-event-codes.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "compositor.h"

#define MAX_ARGS 8
#define WAIT_POLL_MS 5
#define DEFAULT_WAIT_MS 5000

/** One parsed command line: its name, arguments, and the raw text after the name. */
struct command {
	const char *line; /* the whole trimmed line, echoed in the answer */
	const char *rest; /* text after the command name, for exec and screenshot */
	char *argv[MAX_ARGS];
	int argc;
};

static void run_queue(void *data);

void commands_kick(struct server *s) {
	if (s->idle == NULL) {
		s->idle = wl_event_loop_add_idle(s->loop, run_queue, s);
	}
}

void commands_feed(struct server *s, const char *data, size_t len) {
	if (s->queue_len + len + 1 > s->queue_cap) {
		size_t cap = s->queue_cap ? s->queue_cap : 4096;
		while (cap < s->queue_len + len + 1) {
			cap *= 2;
		}
		char *grown = realloc(s->queue, cap);
		if (grown == NULL) {
			fprintf(stderr, "out of memory queueing commands\n");
			return;
		}
		s->queue = grown;
		s->queue_cap = cap;
	}
	memcpy(s->queue + s->queue_len, data, len);
	s->queue_len += len;
	s->queue[s->queue_len] = '\0';
	commands_kick(s);
}

static int handle_stdin(int fd, uint32_t mask, void *data) {
	struct server *s = data;
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n > 0) {
		commands_feed(s, buf, (size_t)n);
		return 0;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return 0;
	}
	/* EOF or error: the driver is gone or the script ended; finish the queue, then quit. */
	wl_event_source_remove(s->stdin_source);
	s->stdin_source = NULL;
	s->input_closed = true;
	commands_kick(s);
	return 0;
}

static bool read_whole_file(struct server *s, int fd) {
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		commands_feed(s, buf, (size_t)n);
	}
	return n == 0;
}

void commands_setup(struct server *s, const char *script) {
	if (strcmp(script, "none") == 0) {
		return; /* run until SIGTERM/SIGINT */
	}
	int fd = STDIN_FILENO;
	if (strcmp(script, "-") != 0) {
		fd = open(script, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "cannot open script %s: %s\n", script, strerror(errno));
			s->input_closed = true;
			commands_kick(s);
			return;
		}
	}
	struct stat st;
	/* epoll refuses regular files (EPERM), so a file is read up front (gotcha 11). */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		read_whole_file(s, fd);
		if (fd != STDIN_FILENO) {
			close(fd);
		}
		s->input_closed = true;
		commands_kick(s);
		return;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	s->stdin_source = wl_event_loop_add_fd(s->loop, fd, WL_EVENT_READABLE, handle_stdin, s);
}

/* Number parsing that rejects trailing junk, so typos answer an error rather than act. */
static bool parse_double(const char *text, double *out) {
	if (text == NULL) {
		return false;
	}
	char *end = NULL;
	errno = 0;
	double value = strtod(text, &end);
	if (end == text || *end != '\0' || errno != 0) {
		return false;
	}
	*out = value;
	return true;
}

static bool parse_long(const char *text, long min, long max, long *out) {
	if (text == NULL) {
		return false;
	}
	char *end = NULL;
	errno = 0;
	long value = strtol(text, &end, 0);
	if (end == text || *end != '\0' || errno != 0 || value < min || value > max) {
		return false;
	}
	*out = value;
	return true;
}

static bool parse_on_off(const char *text, bool *out) {
	if (text != NULL && strcmp(text, "on") == 0) {
		*out = true;
		return true;
	}
	if (text != NULL && strcmp(text, "off") == 0) {
		*out = false;
		return true;
	}
	return false;
}

static bool parse_press(const char *text, bool *pressed) {
	if (text != NULL && strcmp(text, "press") == 0) {
		*pressed = true;
		return true;
	}
	if (text != NULL && strcmp(text, "release") == 0) {
		*pressed = false;
		return true;
	}
	return false;
}

/* How long until the wait is looked at again: a sleep wakes at its deadline (the latency
 * bench's 240 Hz touch frames sleep 4 ms), every other wait polls every WAIT_POLL_MS. */
static int wait_poll_ms(const struct server *s) {
	if (s->wait == WAIT_SLEEP) {
		uint64_t now = now_ms();
		uint64_t left = s->wait_deadline_ms > now ? s->wait_deadline_ms - now : 0;
		return left < 1 ? 1 : left > WAIT_POLL_MS ? WAIT_POLL_MS : (int)left;
	}
	return WAIT_POLL_MS;
}

static int handle_wait_timer(void *data) {
	commands_poll_waits(data);
	return 0;
}

static void start_wait(struct server *s, const struct command *c, enum wait_kind kind, uint64_t timeout_ms) {
	s->wait = kind;
	free(s->wait_command);
	s->wait_command = strdup(c->line);
	s->wait_start_ms = now_ms();
	s->wait_deadline_ms = s->wait_start_ms + timeout_ms;
	s->wait_commits = s->commits;
	s->wait_frames = s->frames;
	if (s->wait_timer == NULL) {
		s->wait_timer = wl_event_loop_add_timer(s->loop, handle_wait_timer, s);
	}
	wl_event_source_timer_update(s->wait_timer, wait_poll_ms(s));
}

static void end_wait(struct server *s, bool ok, const char *why) {
	if (ok) {
		emit("ok %s", s->wait_command ? s->wait_command : "");
	} else {
		emit("error %s: %s", s->wait_command ? s->wait_command : "", why);
	}
	s->wait = WAIT_NONE;
	free(s->wait_command);
	s->wait_command = NULL;
	commands_kick(s);
}

void commands_poll_waits(struct server *s) {
	if (s->wait == WAIT_NONE) {
		return;
	}
	uint64_t now = now_ms();
	bool done = false;
	switch (s->wait) {
	case WAIT_MAP: done = shell_any_mapped(s); break;
	case WAIT_COMMIT: done = s->commits > s->wait_commits; break;
	case WAIT_FRAME: done = s->frames > s->wait_frames; break;
	case WAIT_SLEEP: done = now >= s->wait_deadline_ms; break;
	case WAIT_BURST: break; /* ended by the burst timer */
	case WAIT_SYNC: {
		/* wlroots clears the serial at the pong (the shell's ping timeout is set longer than
		 * any wait, so a timeout cannot clear it first). */
		struct view *view = shell_top_view(s);
		if (view == NULL) {
			end_wait(s, false, "the toplevel went away");
			return;
		}
		done = view->xdg->client->ping_serial == 0;
		break;
	}
	case WAIT_IDLE: {
		/* Quiet is measured from the later of the command's start and the last commit, so a
		 * client that has not reacted yet cannot make this return at once (gotcha 11). */
		uint64_t since = s->last_commit_ms > s->wait_start_ms ? s->last_commit_ms : s->wait_start_ms;
		done = now >= since + s->wait_quiet_ms;
		break;
	}
	case WAIT_NONE: break;
	}
	if (done) {
		end_wait(s, true, NULL);
		return;
	}
	if (s->wait != WAIT_SLEEP && s->wait != WAIT_BURST && now >= s->wait_deadline_ms) {
		char why[64];
		snprintf(why, sizeof why, "timeout after %llu ms",
			(unsigned long long)(s->wait_deadline_ms - s->wait_start_ms));
		end_wait(s, false, why);
		return;
	}
	wl_event_source_timer_update(s->wait_timer, wait_poll_ms(s));
}

static bool parse_button(const char *text, uint32_t *code) {
	if (text == NULL) {
		return false;
	}
	if (strcmp(text, "left") == 0) {
		*code = BTN_LEFT;
	} else if (strcmp(text, "right") == 0) {
		*code = BTN_RIGHT;
	} else if (strcmp(text, "middle") == 0) {
		*code = BTN_MIDDLE;
	} else {
		long value;
		if (!parse_long(text, 0, 0xffff, &value)) {
			return false;
		}
		*code = (uint32_t)value;
	}
	return true;
}

/* Parses an optional timeout argument; absent means the default. */
static bool optional_ms(const char *text, uint64_t *out) {
	long value;
	if (text == NULL) {
		*out = DEFAULT_WAIT_MS;
		return true;
	}
	if (!parse_long(text, 0, 3600000, &value)) {
		return false;
	}
	*out = (uint64_t)value;
	return true;
}

/* One configure of a burst: the size goes linearly from the first to the last, which is exact.
 * The configure is forced out even when it repeats the current size and states (that is the
 * point of a burst of unchanged configures), and each tick is its own event-loop turn, so
 * wlroots cannot fold two of them into one. */
static int handle_burst_timer(void *data) {
	struct server *s = data;
	if (s->wait != WAIT_BURST) {
		return 0;
	}
	struct view *view = shell_top_view(s);
	if (view == NULL) {
		end_wait(s, false, "no toplevel");
		return 0;
	}
	long i = s->burst_sent, last = s->burst_total - 1;
	long w = last > 0 ? s->burst_w0 + (s->burst_w1 - s->burst_w0) * i / last : s->burst_w1;
	long h = last > 0 ? s->burst_h0 + (s->burst_h1 - s->burst_h0) * i / last : s->burst_h1;
	wlr_xdg_toplevel_set_size(view->xdg, (uint32_t)w, (uint32_t)h);
	wlr_xdg_surface_schedule_configure(view->xdg);
	s->burst_sent++;
	if (s->burst_sent >= s->burst_total) {
		end_wait(s, true, NULL);
	} else {
		wl_event_source_timer_update(s->burst_timer, (int)s->burst_interval_ms);
	}
	return 0;
}

#define USAGE(text) do { snprintf(why, n, "usage: %s", text); return false; } while (0)

/* Runs one command. Returns false with why set on error; waits return true and answer later. */
static bool execute(struct server *s, const struct command *c, char *result, size_t rn,
		char *why, size_t n, bool *answered_later) {
	const char *name = c->argv[0];
	char *const *a = c->argv;
	int argc = c->argc;
	double x, y, v, w;
	long id, value;
	bool flag;
	uint64_t ms;

	if (strcmp(name, "down") == 0 || strcmp(name, "motion") == 0) {
		if (argc != 4 || !parse_long(a[1], 0, 1000, &id) || !parse_double(a[2], &x) || !parse_double(a[3], &y)) {
			USAGE("down|motion ID X Y");
		}
		return name[0] == 'd' ? input_touch_down(s, (int)id, x, y, why, n)
			: input_touch_motion(s, (int)id, x, y, why, n);
	}
	if (strcmp(name, "up") == 0) {
		if (argc != 2 || !parse_long(a[1], 0, 1000, &id)) {
			USAGE("up ID");
		}
		return input_touch_up(s, (int)id, why, n);
	}
	if (strcmp(name, "frame") == 0) {
		/* With touch-frames off the frame is swallowed, as cage 0.1.4 never sends one. */
		if (s->touch_frames) {
			input_touch_frame(s);
		}
		return true;
	}
	if (strcmp(name, "touch-frames") == 0) {
		if (argc != 2 || !parse_on_off(a[1], &flag)) {
			USAGE("touch-frames on|off");
		}
		s->touch_frames = flag;
		return true;
	}
	if (strcmp(name, "cancel") == 0) {
		return input_touch_cancel(s, why, n);
	}
	if (strcmp(name, "pointer-move") == 0) {
		if (argc != 3 || !parse_double(a[1], &x) || !parse_double(a[2], &y)) {
			USAGE("pointer-move X Y");
		}
		return input_pointer_move(s, x, y, why, n);
	}
	if (strcmp(name, "button") == 0) {
		uint32_t code;
		if (argc != 3 || !parse_button(a[1], &code) || !parse_press(a[2], &flag)) {
			USAGE("button left|right|middle|CODE press|release");
		}
		return input_pointer_button(s, code, flag, why, n);
	}
	if (strcmp(name, "axis") == 0) {
		bool vertical = argc >= 2 && strcmp(a[1], "vertical") == 0;
		bool horizontal = argc >= 2 && strcmp(a[1], "horizontal") == 0;
		long discrete = 0;
		if ((argc != 3 && argc != 4) || !(vertical || horizontal) || !parse_double(a[2], &v)
				|| (argc == 4 && !parse_long(a[3], -1000, 1000, &discrete))) {
			USAGE("axis vertical|horizontal VALUE [DISCRETE]");
		}
		return input_pointer_axis(s, vertical, v, (int)discrete, argc == 4, why, n);
	}
	if (strcmp(name, "pointer-frame") == 0) {
		input_pointer_frame(s);
		return true;
	}
	if (strcmp(name, "pointer-autoframe") == 0) {
		if (argc != 2 || !parse_on_off(a[1], &flag)) {
			USAGE("pointer-autoframe on|off");
		}
		s->pointer_autoframe = flag;
		return true;
	}
	if (strcmp(name, "key") == 0) {
		if (argc != 3 || !parse_long(a[1], 0, 0xffff, &value) || !parse_press(a[2], &flag)) {
			USAGE("key EVDEVCODE press|release");
		}
		return input_key(s, (uint32_t)value, flag, why, n);
	}
	if (strcmp(name, "wait-commit") == 0) {
		/* SINCE closes the race between a driver's input and this command: the commit may
		 * already have happened by the time the command arrives. */
		long since = 0;
		if (argc > 3 || !optional_ms(argc >= 2 ? a[1] : NULL, &ms)
				|| (argc == 3 && !parse_long(a[2], 0, LONG_MAX, &since))) {
			USAGE("wait-commit [TIMEOUT_MS [SINCE]]");
		}
		start_wait(s, c, WAIT_COMMIT, ms);
		if (argc == 3) {
			s->wait_commits = (uint64_t)since;
		}
		*answered_later = true;
		commands_poll_waits(s);
		return true;
	}
	if (strcmp(name, "wait-map") == 0 || strcmp(name, "wait-frame") == 0) {
		if (argc > 2 || !optional_ms(argc == 2 ? a[1] : NULL, &ms)) {
			snprintf(why, n, "usage: %s [TIMEOUT_MS]", name);
			return false;
		}
		start_wait(s, c, name[5] == 'm' ? WAIT_MAP : WAIT_FRAME, ms);
		*answered_later = true;
		commands_poll_waits(s); /* wait-map answers at once when a toplevel is already mapped */
		return true;
	}
	if (strcmp(name, "wait-sync") == 0) {
		/* The client answers a ping after it has dispatched every event sent before it: the
		 * input injected so far has reached the app, whatever it draws and whenever. */
		struct view *view = shell_top_view(s);
		if (argc > 2 || !optional_ms(argc == 2 ? a[1] : NULL, &ms)) {
			USAGE("wait-sync [TIMEOUT_MS]");
		}
		if (view == NULL) {
			snprintf(why, n, "no toplevel");
			return false;
		}
		if (view->xdg->client->ping_serial != 0) {
			snprintf(why, n, "a ping is already outstanding");
			return false;
		}
		wlr_xdg_surface_ping(view->xdg);
		start_wait(s, c, WAIT_SYNC, ms);
		*answered_later = true;
		return true;
	}
	if (strcmp(name, "wait-idle") == 0) {
		long quiet;
		if (argc < 2 || argc > 3 || !parse_long(a[1], 0, 3600000, &quiet)
				|| !optional_ms(argc == 3 ? a[2] : NULL, &ms)) {
			USAGE("wait-idle QUIET_MS [TIMEOUT_MS]");
		}
		start_wait(s, c, WAIT_IDLE, ms);
		s->wait_quiet_ms = (uint64_t)quiet;
		*answered_later = true;
		return true;
	}
	if (strcmp(name, "sleep") == 0) {
		if (argc != 2 || !parse_long(a[1], 0, 3600000, &value)) {
			USAGE("sleep MS");
		}
		start_wait(s, c, WAIT_SLEEP, (uint64_t)value);
		*answered_later = true;
		return true;
	}
	if (strcmp(name, "screenshot") == 0) {
		if (c->rest == NULL || c->rest[0] == '\0') {
			USAGE("screenshot FILE.png");
		}
		return output_screenshot(s, c->rest, why, n);
	}
	if (strcmp(name, "text-input-preedit") == 0 || strcmp(name, "text-input-commit") == 0) {
		/* The text is the rest of the line, spaces included; a pre-edit's caret goes at its end. */
		const char *text = c->rest ? c->rest : "";
		bool preedit = strcmp(name, "text-input-preedit") == 0;
		if (!preedit && text[0] == '\0') {
			USAGE("text-input-commit TEXT");
		}
		long end = (long)strlen(text);
		return text_input_send(s, preedit ? "preedit" : "commit", text, end, end, why, n);
	}
	if (strcmp(name, "text-input-delete") == 0) {
		if (argc != 3 || !parse_long(a[1], 0, 100000, &id) || !parse_long(a[2], 0, 100000, &value)) {
			USAGE("text-input-delete BEFORE AFTER");
		}
		return text_input_send(s, "delete", NULL, id, value, why, n);
	}
	if (strcmp(name, "text-input-status") == 0) {
		text_input_status(s, result, rn);
		return true;
	}
	if (strcmp(name, "configure") == 0) {
		if (argc != 3 || !parse_double(a[1], &w) || !parse_double(a[2], &v) || w < 0 || v < 0) {
			USAGE("configure W H");
		}
		struct view *view = shell_top_view(s);
		if (view == NULL) {
			snprintf(why, n, "no toplevel");
			return false;
		}
		wlr_xdg_toplevel_set_size(view->xdg, (uint32_t)w, (uint32_t)v);
		return true;
	}
	if (strcmp(name, "configure-burst") == 0) {
		long count, interval, w0, h0, w1, h1;
		if ((argc != 5 && argc != 7) || !parse_long(a[1], 1, 100000, &count)
				|| !parse_long(a[2], 1, 10000, &interval) || !parse_long(a[3], 0, 100000, &w0)
				|| !parse_long(a[4], 0, 100000, &h0)
				|| (argc == 7 && (!parse_long(a[5], 0, 100000, &w1) || !parse_long(a[6], 0, 100000, &h1)))) {
			USAGE("configure-burst N INTERVAL_MS W H [W_END H_END]");
		}
		if (shell_top_view(s) == NULL) {
			snprintf(why, n, "no toplevel");
			return false;
		}
		if (argc == 5) {
			w1 = w0;
			h1 = h0;
		}
		s->burst_total = count;
		s->burst_sent = 0;
		s->burst_interval_ms = interval;
		s->burst_w0 = w0;
		s->burst_h0 = h0;
		s->burst_w1 = w1;
		s->burst_h1 = h1;
		start_wait(s, c, WAIT_BURST, 0);
		if (s->burst_timer == NULL) {
			s->burst_timer = wl_event_loop_add_timer(s->loop, handle_burst_timer, s);
		}
		wl_event_source_timer_update(s->burst_timer, 1);
		*answered_later = true;
		return true;
	}
	if (strcmp(name, "buffers") == 0) {
		if (argc > 2 || (argc == 2 && strcmp(a[1], "reset") != 0)) {
			USAGE("buffers [reset]");
		}
		if (argc == 2) {
			s->buffer_commits = 0;
			s->most_buffers_per_refresh = 0;
			s->empty_damage_buffers = 0;
		}
		snprintf(result, rn, "count=%llu most-per-refresh=%llu empty-damage=%llu size=%dx%d buffer=%dx%d",
			(unsigned long long)s->buffer_commits, (unsigned long long)s->most_buffers_per_refresh,
			(unsigned long long)s->empty_damage_buffers,
			s->last_surface_width, s->last_surface_height, s->last_buffer_width, s->last_buffer_height);
		return true;
	}
	if (strcmp(name, "exec") == 0) {
		if (c->rest == NULL || c->rest[0] == '\0') {
			USAGE("exec COMMAND");
		}
		if (!spawn_client(s, c->rest)) {
			snprintf(why, n, "fork failed: %s", strerror(errno));
			return false;
		}
		return true;
	}
	if (strcmp(name, "status") == 0) {
		char caps[64];
		char output[32] = "none";
		if (s->output != NULL) {
			snprintf(output, sizeof output, "%dx%d", s->output->width, s->output->height);
		}
		snprintf(result, rn,
			"toplevels=%zu mapped=%zu touch-points=%d pointer-focus=%s caps=%s output=%s scale=%d "
			"commits=%llu frames=%llu hold-buffers=%s held=%zu unacked-configures=%zu",
			shell_view_count(s, false), shell_view_count(s, true), input_touch_count(s),
			input_pointer_has_focus(s) ? "yes" : "no", input_caps_string(s, caps, sizeof caps), output,
			s->scale, (unsigned long long)s->commits, (unsigned long long)s->frames,
			s->hold_buffers ? "on" : "off", s->held_count, shell_unacked_configures(s));
		return true;
	}
	if (strcmp(name, "quit") == 0) {
		emit("ok %s", c->line);
		s->quitting = true;
		*answered_later = true;
		wl_display_terminate(s->display);
		return true;
	}
	if (strcmp(name, "seat-caps") == 0) {
		if (argc != 2) {
			USAGE("seat-caps pointer,keyboard,touch|none");
		}
		return input_set_caps(s, a[1], why, n);
	}
	if (strcmp(name, "output-scale") == 0) {
		if (argc != 2 || !parse_long(a[1], 1, 8, &value)) {
			USAGE("output-scale 1..8");
		}
		if (!output_set_scale(s, (int)value)) {
			snprintf(why, n, "output commit failed");
			return false;
		}
		return true;
	}
	if (strcmp(name, "output-remove") == 0) {
		if (s->output == NULL) {
			snprintf(why, n, "no output");
			return false;
		}
		output_remove(s);
		return true;
	}
	if (strcmp(name, "output-add") == 0) {
		if (s->output != NULL) {
			snprintf(why, n, "an output exists already");
			return false;
		}
		if (!output_add(s)) {
			snprintf(why, n, "cannot create the headless output");
			return false;
		}
		return true;
	}
	if (strcmp(name, "hold-buffers") == 0) {
		if (argc != 2 || !parse_on_off(a[1], &flag)) {
			USAGE("hold-buffers on|off");
		}
		s->hold_buffers = flag;
		if (flag) {
			shell_hold_current_buffers(s);
		} else {
			shell_release_held_buffers(s);
		}
		return true;
	}
	if (strcmp(name, "pinch-begin") == 0) {
		if (argc != 2 || !parse_long(a[1], 1, 10, &value)) {
			USAGE("pinch-begin FINGERS");
		}
		return input_pinch_begin(s, (uint32_t)value, why, n);
	}
	if (strcmp(name, "pinch-update") == 0) {
		double scale, rotation;
		if (argc != 5 || !parse_double(a[1], &x) || !parse_double(a[2], &y) || !parse_double(a[3], &scale)
				|| !parse_double(a[4], &rotation)) {
			USAGE("pinch-update DX DY SCALE ROTATION");
		}
		return input_pinch_update(s, x, y, scale, rotation, why, n);
	}
	if (strcmp(name, "pinch-end") == 0) {
		if (argc > 2 || (argc == 2 && strcmp(a[1], "cancelled") != 0)) {
			USAGE("pinch-end [cancelled]");
		}
		return input_pinch_end(s, argc == 2, why, n);
	}
	if (strcmp(name, "commits") == 0) {
		snprintf(result, rn, "%llu", (unsigned long long)s->commits);
		return true;
	}
	if (strcmp(name, "keyboard-leave") == 0) {
		if (argc > 2 || (argc == 2 && strcmp(a[1], "twice") != 0)) {
			USAGE("keyboard-leave [twice]");
		}
		struct wlr_seat_client *client = s->seat->keyboard_state.focused_client;
		struct wlr_surface *surface = s->seat->keyboard_state.focused_surface;
		if (client == NULL || surface == NULL) {
			snprintf(why, n, "no keyboard focus");
			return false;
		}
		struct wl_resource *surface_resource = surface->resource;
		wlr_seat_keyboard_notify_clear_focus(s->seat);
		if (argc == 2) {
			/* wlroots sent one leave and forgot the focus; say it again, as phoc was reported to. */
			struct wl_resource *keyboard;
			wl_resource_for_each(keyboard, &client->keyboards) {
				wl_keyboard_send_leave(keyboard, wlr_seat_client_next_serial(client), surface_resource);
			}
		}
		return true;
	}
	if (strcmp(name, "keyboard-enter") == 0) {
		struct view *view = shell_top_view(s);
		if (view == NULL) {
			snprintf(why, n, "no toplevel");
			return false;
		}
		input_focus_view(s, view);
		return true;
	}
	if (strcmp(name, "kill-client") == 0) {
		struct view *view = shell_top_view(s);
		if (view == NULL) {
			snprintf(why, n, "no toplevel");
			return false;
		}
		wl_client_destroy(wl_resource_get_client(view->xdg->resource));
		return true;
	}
	snprintf(why, n, "unknown command");
	return false;
}

/* Splits a line in place into a command; returns false for blank lines and comments. */
static bool parse_line(char *line, struct command *c) {
	while (*line == ' ' || *line == '\t') {
		line++;
	}
	size_t len = strlen(line);
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r')) {
		line[--len] = '\0';
	}
	if (len == 0 || line[0] == '#') {
		return false;
	}
	static char copy[4096];
	snprintf(copy, sizeof copy, "%s", line);
	c->line = line;
	c->argc = 0;
	c->rest = NULL;
	char *name_end = line + strcspn(line, " \t");
	if (*name_end != '\0') {
		const char *rest = name_end + strspn(name_end, " \t");
		c->rest = rest;
	}
	char *save = NULL;
	for (char *tok = strtok_r(copy, " \t", &save); tok && c->argc < MAX_ARGS; tok = strtok_r(NULL, " \t", &save)) {
		c->argv[c->argc++] = tok;
	}
	return c->argc > 0;
}

static void run_line(struct server *s, char *line) {
	struct command c;
	if (!parse_line(line, &c)) {
		return;
	}
	char why[512] = "";
	char result[512] = "";
	bool later = false;
	bool ok = execute(s, &c, result, sizeof result, why, sizeof why, &later);
	if (later) {
		return;
	}
	if (!ok) {
		emit("error %s: %s", c.line, why);
	} else if (result[0] != '\0') {
		emit("ok %s: %s", c.line, result);
	} else {
		emit("ok %s", c.line);
	}
}

static void run_queue(void *data) {
	struct server *s = data;
	s->idle = NULL;
	while (s->wait == WAIT_NONE) {
		char *newline = s->queue ? memchr(s->queue, '\n', s->queue_len) : NULL;
		if (newline == NULL && !(s->input_closed && s->queue_len > 0)) {
			break;
		}
		size_t line_len = newline ? (size_t)(newline - s->queue) : s->queue_len;
		char line[4096];
		size_t copy_len = line_len < sizeof line - 1 ? line_len : sizeof line - 1;
		memcpy(line, s->queue, copy_len);
		line[copy_len] = '\0';
		size_t consumed = newline ? line_len + 1 : line_len;
		memmove(s->queue, s->queue + consumed, s->queue_len - consumed);
		s->queue_len -= consumed;
		s->queue[s->queue_len] = '\0';
		run_line(s, line);
	}
	if (s->wait == WAIT_NONE && s->input_closed && s->queue_len == 0) {
		wl_display_terminate(s->display);
	}
}
