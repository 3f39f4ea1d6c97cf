/*
 * meridian-test-compositor: a headless wlroots 0.15 compositor for Meridian's end-to-end tests.
 *
 * Headless backend + pixman renderer (no DRM, no GPU, no display). It offers wl_compositor,
 * wl_subcompositor, wl_data_device_manager, xdg_wm_base, zxdg_output_manager_v1,
 * zwlr_screencopy_manager_v1, wp_viewporter, zxdg_decoration_manager_v1 (always server-side),
 * zwp_pointer_gestures_v1, wp_presentation, zwp_text_input_manager_v3 (it is the input method),
 * zwp_input_timestamps_manager_v1 (touch times to the ns), one wl_output and wl_seat "seat0" (pointer, keyboard, touch).
 * Input is injected and screenshots are taken through commands read line by line on stdin.
 *
 * Usage: meridian-test-compositor [-W w] [-H h] [-S socket] [-R hz] [-f script|-|none] [-s "client cmd"] [-k] [-v]
 *   -W, -H  output size in pixels (default 800x600)
 *   -S      socket name (default: the first free wayland-N)
 *   -R      output refresh in Hz (default 60): vblanks on a fixed monotonic grid composite the
 *           scene, answer frame callbacks and send wp_presentation feedback (time = the vblank)
 *   -f      command source: a script file, "-" for stdin (the default), or "none"
 *   -s      a shell command started as a client once the compositor is ready
 *   -k      kiosk: toplevels are configured maximized to the output size
 *   -v      wlroots debug log on stderr
 *
 * Every command answers one line on stdout: "ok <cmd>" (or "ok <cmd>: <result>" for the commands
 * that report something) or "error <cmd>: <why>". "ready" is printed once the socket listens;
 * asynchronous lines start with "event ". End of input quits (after the queued commands ran).
 *
 * Commands (coordinates are output-layout pixels, i.e. logical pixels; at scale 1 output pixels):
 *   down ID X Y            touch point ID goes down on the surface under X,Y
 *   motion ID X Y          touch point ID moves to X,Y (surface-local = X,Y minus the surface origin at down)
 *   up ID                  touch point ID goes up
 *   frame                  wl_touch.frame: ends the touch events sent since the last frame
 *   touch-frames on|off    off: `frame` sends nothing, as cage 0.1.4 never sends wl_touch.frame (default on)
 *   cancel                 wl_touch.cancel to the client of the active touch points, which are forgotten
 *   pointer-move X Y       pointer to X,Y: enter/motion/leave as the surface under it changes
 *   button B press|release B is left, right, middle or an evdev code
 *   axis vertical|horizontal V [DISCRETE]   scroll; with DISCRETE the source is wheel, else finger
 *   pointer-frame          wl_pointer.frame
 *   pointer-autoframe on|off  send wl_pointer.frame after each motion/button/axis (default on)
 *   key CODE press|release evdev key code through the seat keyboard (modifiers follow)
 *   wait-map [MS]          wait until a toplevel is mapped (default timeout 5000 ms)
 *   wait-commit [MS [SINCE]]  wait for a toplevel commit: the next one, or with SINCE (a `commits`
 *                          count read earlier) any commit made after that count (default timeout 5000 ms)
 *   wait-idle MS [TIMEOUT] wait until toplevels have not committed for MS ms, counted from now
 *   wait-frame [MS]        wait for the next output frame (a render and frame callbacks)
 *   wait-sync [MS]         ping the newest toplevel's client (xdg_wm_base.ping) and wait for its pong:
 *                          it has read and dispatched every event sent before (default timeout 5000 ms)
 *   sleep MS               let MS milliseconds pass while clients keep running
 *   screenshot FILE        write the output as PNG (physical pixels)
 *   configure W H          send the newest toplevel a configure of W x H
 *   configure-burst N MS W H [W2 H2]  N configures, one every MS ms, each sent even when it
 *                          repeats the current size; sizes linear from WxH to W2xH2 (default WxH)
 *   buffers [reset]        "count=N most-per-refresh=M empty-damage=E size=WxH buffer=WxH": commits
 *                          that attached a buffer, the most between two refreshes, those with empty
 *                          damage, the newest's sizes; reset zeroes the counts
 *   exec CMD               start a shell command as a client
 *   status                 one-line summary of the compositor's state
 *   quit                   answer and exit with status 0
 *   seat-caps LIST         set seat capabilities: a comma list of pointer, keyboard, touch, or "none"
 *   output-scale S         set the integer output scale (wl_output.scale, done; kiosk reconfigures)
 *   output-remove          destroy the output (its wl_output global goes away)
 *   output-add             create a new headless output of the original size and scale
 *   hold-buffers on|off    on: answer no frame callbacks and keep every committed buffer locked
 *                          (no wl_buffer.release); off: release them and resume frame callbacks
 *   pinch-begin N          zwp_pointer_gesture_pinch_v1.begin with N fingers (needs pointer focus)
 *   pinch-update DX DY SCALE ROT  pinch update
 *   pinch-end [cancelled]  pinch end
 *   commits                number of commits seen from toplevel surfaces so far ("ok commits: N")
 *   kill-client            wl_client_destroy of the newest toplevel's client
 *   keyboard-leave [twice] clear the keyboard focus (wl_keyboard.leave); with twice, a second
 *                          leave for the same surface follows
 *   keyboard-enter         give the newest toplevel the keyboard focus again
 *   text-input-preedit [TEXT]  as an input method: zwp_text_input_v3 preedit_string TEXT (the rest
 *                          of the line, caret at its end; none clears it) then done, to the enabled
 *                          text input with focus
 *   text-input-commit TEXT commit_string TEXT, then done
 *   text-input-delete B A  delete_surrounding_text of B bytes before and A after the caret, then done
 *   text-input-status      "enabled=yes|no focused=yes|no enables=N disables=N" and, while enabled,
 *                          "commits=N cursor=BYTES rect=X,Y,W,H text=SURROUNDING" (the text last)
 *
 * Events: "event map title=T app_id=A WxH", "event unmap", "event destroy",
 *   "event output-added WxH", "event output-removed", "event text-input enabled|disabled".
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer_gestures_v1.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/util/log.h>

#include "compositor.h"

uint64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void emit(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

bool spawn_client(struct server *s, const char *command) {
	pid_t pid = fork();
	if (pid < 0) {
		return false;
	}
	if (pid == 0) {
		/* The client gets the default signal dispositions, not our SIGCHLD=SIG_IGN. */
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		setenv("WAYLAND_DISPLAY", s->socket, 1);
		unsetenv("DISPLAY");
		/* stdin is our command pipe: clients must not read our commands. */
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			close(devnull);
		}
		/* stdout carries our protocol: send client output to stderr instead. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execl("/bin/sh", "/bin/sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	return true;
}

static int handle_signal(int signo, void *data) {
	struct server *s = data;
	wl_display_terminate(s->display);
	return 0;
}

static void usage(const char *argv0) {
	fprintf(stderr, "usage: %s [-W w] [-H h] [-S socket] [-R hz] [-f script|-|none] [-s \"client cmd\"] [-k] [-v]\n",
		argv0);
}

static bool parse_size(const char *text, int *out) {
	char *end = NULL;
	long value = strtol(text, &end, 10);
	if (end == text || *end != '\0' || value < 16 || value > 8192) {
		return false;
	}
	*out = (int)value;
	return true;
}

int main(int argc, char *argv[]) {
	struct server s = {0};
	s.width = 800;
	s.height = 600;
	s.scale = 1;
	s.refresh_hz = 60;
	s.pointer_autoframe = true;
	s.touch_frames = true;
	const char *script = "-";
	const char *startup_client = NULL;
	int opt;
	while ((opt = getopt(argc, argv, "W:H:S:R:f:s:kvh")) != -1) {
		switch (opt) {
		case 'W':
			if (!parse_size(optarg, &s.width)) {
				fprintf(stderr, "bad width: %s\n", optarg);
				return 2;
			}
			break;
		case 'H':
			if (!parse_size(optarg, &s.height)) {
				fprintf(stderr, "bad height: %s\n", optarg);
				return 2;
			}
			break;
		case 'S': s.socket = optarg; break;
		case 'R': {
			char *end = NULL;
			long hz = strtol(optarg, &end, 10);
			if (end == optarg || *end != '\0' || hz < 1 || hz > 1000) {
				fprintf(stderr, "bad refresh (1..1000 Hz): %s\n", optarg);
				return 2;
			}
			s.refresh_hz = (int)hz;
			break;
		}
		case 'f': script = optarg; break;
		case 's': startup_client = optarg; break;
		case 'k': s.kiosk = true; break;
		case 'v': s.verbose = true; break;
		default: usage(argv[0]); return opt == 'h' ? 0 : 2;
		}
	}
	if (optind < argc) {
		usage(argv[0]);
		return 2;
	}

	/* Children we exec are never waited for; the container's PID 1 would not reap them either. */
	signal(SIGCHLD, SIG_IGN);
	/* A test driver that dies closes our stdout; writes must then fail, not kill us mid-cleanup. */
	signal(SIGPIPE, SIG_IGN);
	wlr_log_init(s.verbose ? WLR_DEBUG : WLR_ERROR, NULL);

	if (getenv("XDG_RUNTIME_DIR") == NULL) {
		fprintf(stderr, "XDG_RUNTIME_DIR is not set; the Wayland socket needs it\n");
		return 1;
	}

	s.display = wl_display_create();
	s.loop = wl_display_get_event_loop(s.display);
	wl_list_init(&s.views);

	s.backend = wlr_headless_backend_create(s.display);
	if (s.backend == NULL) {
		fprintf(stderr, "cannot create the headless backend\n");
		return 1;
	}
	/* Pixman needs no DRM device, so this runs in containers without /dev/dri. */
	s.renderer = wlr_pixman_renderer_create();
	if (s.renderer == NULL || !wlr_renderer_init_wl_display(s.renderer, s.display)) {
		fprintf(stderr, "cannot create the pixman renderer\n");
		return 1;
	}
	s.allocator = wlr_allocator_autocreate(s.backend, s.renderer);
	if (s.allocator == NULL) {
		fprintf(stderr, "cannot create a buffer allocator\n");
		return 1;
	}

	wlr_compositor_create(s.display, s.renderer); /* also wl_subcompositor in 0.15 */
	wlr_data_device_manager_create(s.display);
	wlr_viewporter_create(s.display);
	s.presentation = wlr_presentation_create(s.display, s.backend);
	wlr_screencopy_manager_v1_create(s.display);
	s.gestures = wlr_pointer_gestures_v1_create(s.display);
	text_input_setup(&s);
	s.layout = wlr_output_layout_create();
	wlr_xdg_output_manager_v1_create(s.display, s.layout);
	s.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(s.scene, s.layout);
	float grey[4] = {0.2f, 0.2f, 0.2f, 1.0f};
	s.background = wlr_scene_rect_create(&s.scene->node, s.width, s.height, grey);

	output_setup(&s);
	shell_setup(&s);

	if (s.socket != NULL) {
		if (wl_display_add_socket(s.display, s.socket) != 0) {
			fprintf(stderr, "cannot listen on socket %s in %s\n", s.socket, getenv("XDG_RUNTIME_DIR"));
			return 1;
		}
	} else {
		s.socket = wl_display_add_socket_auto(s.display);
		if (s.socket == NULL) {
			fprintf(stderr, "cannot find a free wayland socket in %s\n", getenv("XDG_RUNTIME_DIR"));
			return 1;
		}
	}

	if (!wlr_backend_start(s.backend)) {
		fprintf(stderr, "cannot start the headless backend\n");
		return 1;
	}
	input_setup(&s);
	input_timestamps_setup(&s);
	if (!output_add(&s)) {
		fprintf(stderr, "cannot create the headless output\n");
		return 1;
	}
	setenv("WAYLAND_DISPLAY", s.socket, 1);
	unsetenv("DISPLAY");
	if (s.verbose) {
		fprintf(stderr, "listening on %s\n", s.socket);
	}

	wl_event_loop_add_signal(s.loop, SIGTERM, handle_signal, &s);
	wl_event_loop_add_signal(s.loop, SIGINT, handle_signal, &s);
	/* Frames come from a fixed vblank grid whether or not anything changed, so frame callbacks
	 * and wait-frame always make progress (gotcha 5 in test-compositors.md). */
	if (!output_start_vblanks(&s)) {
		fprintf(stderr, "cannot start the vblank timer\n");
		return 1;
	}

	emit("ready");
	s.ready = true;
	if (startup_client != NULL && !spawn_client(&s, startup_client)) {
		fprintf(stderr, "cannot start client: %s\n", startup_client);
	}
	commands_setup(&s, script);

	wl_display_run(s.display);
	s.quitting = true;

	shell_release_held_buffers(&s);
	wl_display_destroy_clients(s.display);
	wl_display_destroy(s.display);
	free(s.queue);
	free(s.wait_command);
	free(s.held);
	return 0;
}
