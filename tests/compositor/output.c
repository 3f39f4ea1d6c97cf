/*
 * The one headless output: creation and removal at run time, scale, frame pacing and screenshots.
 */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <drm_fourcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "compositor.h"

/* The headless backend's own frame events (ms-granular, restarted at each commit) are not the
 * refresh: the vblank grid below composites. They only unblock the output (see below). */
static void handle_output_frame(struct wl_listener *listener, void *data) {
}

/* Sends presentation feedback for what a toplevel committed since the previous vblank: it is
 * on screen from this vblank on. Feedback for a commit replaced before any vblank was already
 * discarded by wlroots when the newer commit came. */
static void present_views(struct server *s, const struct timespec *when) {
	int64_t at = (int64_t)when->tv_sec * 1000000000LL + when->tv_nsec;
	struct view *view;
	wl_list_for_each(view, &s->views, link) {
		/* A commit that came after the vblank instant (this loop ran late) would have missed
		 * a real display's latch: it is reported at the next vblank, though drawn now. */
		if (!view->mapped || view->commit_ns > at) {
			continue;
		}
		struct wlr_presentation_feedback *feedback =
			wlr_presentation_surface_sampled(s->presentation, view->xdg->surface);
		if (feedback == NULL) {
			continue;
		}
		struct wlr_presentation_event event = {
			.output = s->output,
			.tv_sec = (uint64_t)when->tv_sec,
			.tv_nsec = (uint32_t)when->tv_nsec,
			.refresh = (uint32_t)s->vblank_period_ns,
			.seq = s->vblank_seq,
			.flags = 0x1 | 0x2, /* wp_presentation_feedback.kind: vsync, hw_clock */
		};
		wlr_presentation_feedback_send_presented(feedback, &event);
		wlr_presentation_feedback_destroy(feedback);
	}
}

static int handle_vblank(int fd, uint32_t mask, void *data) {
	struct server *s = data;
	uint64_t expirations = 0;
	if (read(fd, &expirations, sizeof expirations) != (ssize_t)sizeof expirations) {
		return 0;
	}
	s->vblank_seq += expirations;
	if (s->output == NULL || s->scene_output == NULL) {
		return 0;
	}
	/* The vblank instant itself, not when this loop got to it. */
	int64_t at = s->vblank_epoch_ns + (int64_t)s->vblank_seq * s->vblank_period_ns;
	struct timespec when = {.tv_sec = at / 1000000000, .tv_nsec = at % 1000000000};
	/* wlroots refuses a buffer commit until the backend's frame event clears frame_pending;
	 * that event comes on its own ms timer, which the grid does not wait for. */
	if (s->output->frame_pending) {
		wlr_output_send_frame(s->output);
	}
	if (!s->no_composite) {
		wlr_scene_output_commit(s->scene_output);
	}
	s->frames++;
	/* A new refresh: frame callbacks are answered now, so a client may draw once more. */
	s->buffers_this_refresh = 0;
	if (!s->hold_buffers) {
		present_views(s, &when);
		wlr_scene_output_send_frame_done(s->scene_output, &when);
	}
	commands_poll_waits(s);
	return 0;
}

bool output_start_vblanks(struct server *s) {
	const char *no_composite = getenv("MERIDIAN_TC_NO_COMPOSITE");
	s->no_composite = no_composite != NULL && strcmp(no_composite, "1") == 0;
	s->vblank_period_ns = 1000000000LL / s->refresh_hz;
	s->vblank_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->vblank_fd < 0) {
		return false;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	s->vblank_epoch_ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
	int64_t first = s->vblank_epoch_ns + s->vblank_period_ns;
	struct itimerspec spec = {
		.it_interval = {.tv_sec = s->vblank_period_ns / 1000000000, .tv_nsec = s->vblank_period_ns % 1000000000},
		.it_value = {.tv_sec = first / 1000000000, .tv_nsec = first % 1000000000},
	};
	if (timerfd_settime(s->vblank_fd, TFD_TIMER_ABSTIME, &spec, NULL) != 0) {
		return false;
	}
	s->vblank_source = wl_event_loop_add_fd(s->loop, s->vblank_fd, WL_EVENT_READABLE, handle_vblank, s);
	return s->vblank_source != NULL;
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, output_destroy);
	wl_list_remove(&s->output_frame.link);
	wl_list_remove(&s->output_destroy.link);
	/* The scene output is an addon of the output and goes with it; the layout drops it too. */
	s->scene_output = NULL;
	s->output = NULL;
	if (!s->quitting) {
		emit("event output-removed");
	}
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, new_output);
	struct wlr_output *output = data;
	if (s->output != NULL) {
		return; /* one output only; a second would make coordinates ambiguous */
	}
	wlr_output_init_render(output, s->allocator, s->renderer);
	wlr_output_set_custom_mode(output, s->width, s->height, s->refresh_hz * 1000);
	wlr_output_set_scale(output, (float)s->scale);
	wlr_output_enable(output, true);
	if (!wlr_output_commit(output)) {
		fprintf(stderr, "cannot enable the headless output\n");
		return;
	}
	s->output = output;
	s->output_frame.notify = handle_output_frame;
	wl_signal_add(&output->events.frame, &s->output_frame);
	s->output_destroy.notify = handle_output_destroy;
	wl_signal_add(&output->events.destroy, &s->output_destroy);
	wlr_output_layout_add(s->layout, output, 0, 0);
	wlr_output_create_global(output);
	s->scene_output = wlr_scene_output_create(s->scene, output);
	output_layout_changed(s);
	if (s->ready && !s->quitting) {
		emit("event output-added %dx%d", s->width, s->height);
	}
}

void output_setup(struct server *s) {
	s->new_output.notify = handle_new_output;
	wl_signal_add(&s->backend->events.new_output, &s->new_output);
}

bool output_add(struct server *s) {
	if (s->output != NULL) {
		return false;
	}
	wlr_headless_add_output(s->backend, (unsigned)s->width, (unsigned)s->height);
	if (s->output == NULL) {
		return false;
	}
	shell_send_enter_all(s);
	return true;
}

void output_remove(struct server *s) {
	if (s->output != NULL) {
		wlr_output_destroy(s->output);
	}
}

bool output_set_scale(struct server *s, int scale) {
	s->scale = scale;
	if (s->output == NULL) {
		return true; /* applies to the next output-add */
	}
	wlr_output_set_scale(s->output, (float)scale);
	if (!wlr_output_commit(s->output)) {
		return false;
	}
	output_layout_changed(s);
	shell_send_enter_all(s);
	return true;
}

/** Resizes the background to the output's logical size and, in kiosk mode, the toplevels too. */
void output_layout_changed(struct server *s) {
	if (s->output == NULL) {
		return;
	}
	int w = 0, h = 0;
	wlr_output_effective_resolution(s->output, &w, &h);
	wlr_scene_rect_set_size(s->background, w, h);
	if (s->kiosk) {
		shell_configure_all(s);
	}
}

/* Renders the scene into the output's back buffer, reads it into a cairo surface and rolls the
 * output back: nothing is presented and the scene's damage tracking is unaffected (gotcha 6). */
bool output_screenshot(struct server *s, const char *path, char *why, size_t why_len) {
	if (s->output == NULL) {
		snprintf(why, why_len, "no output");
		return false;
	}
	int width = s->output->width, height = s->output->height;
	if (!wlr_output_attach_render(s->output, NULL)) {
		snprintf(why, why_len, "cannot attach the output's renderer");
		return false;
	}
	cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
	if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
		wlr_output_rollback(s->output);
		snprintf(why, why_len, "cannot allocate %dx%d image", width, height);
		return false;
	}
	wlr_renderer_begin(s->renderer, (uint32_t)width, (uint32_t)height);
	float black[4] = {0, 0, 0, 1};
	wlr_renderer_clear(s->renderer, black);
	wlr_scene_render_output(s->scene, s->output, 0, 0, NULL);
	cairo_surface_flush(image);
	uint32_t flags = 0;
	/* CAIRO_FORMAT_ARGB32 and DRM_FORMAT_ARGB8888 share the memory layout on little-endian. */
	bool read = wlr_renderer_read_pixels(s->renderer, DRM_FORMAT_ARGB8888, &flags,
		(uint32_t)cairo_image_surface_get_stride(image), (uint32_t)width, (uint32_t)height,
		0, 0, 0, 0, cairo_image_surface_get_data(image));
	wlr_renderer_end(s->renderer);
	wlr_output_rollback(s->output);
	if (!read) {
		cairo_surface_destroy(image);
		snprintf(why, why_len, "cannot read pixels back");
		return false;
	}
	cairo_surface_mark_dirty(image);
	cairo_status_t status = cairo_surface_write_to_png(image, path);
	cairo_surface_destroy(image);
	if (status != CAIRO_STATUS_SUCCESS) {
		snprintf(why, why_len, "cannot write %s: %s", path, cairo_status_to_string(status));
		return false;
	}
	return true;
}
