/*
 * zwp_input_timestamps_manager_v1: touch events' times to the nanosecond. wl_touch carries whole
 * milliseconds; a client that subscribes gets, just before each touch event carrying a time, a
 * `timestamp` with the same instant in full (CLOCK_MONOTONIC, like the events). Keyboard and
 * pointer subscriptions are accepted and stay silent (nothing here injects those with stamps).
 */
#include <stdlib.h>
#include <wayland-server-core.h>

#include "compositor.h"
#include "input-timestamps-unstable-v1-protocol.h"

/* One touch subscription. */
struct touch_stamps {
	struct wl_resource *resource;
	struct wl_list link;
};

static struct wl_list subscriptions; /* struct touch_stamps.link */

static void stamps_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct zwp_input_timestamps_v1_interface stamps_impl = {
	.destroy = stamps_destroy,
};

static void stamps_resource_destroyed(struct wl_resource *resource) {
	struct touch_stamps *t = wl_resource_get_user_data(resource);
	if (t != NULL) {
		wl_list_remove(&t->link);
		free(t);
	}
}

static void subscribe(struct wl_client *client, struct wl_resource *manager, uint32_t id, bool touch) {
	struct wl_resource *r =
		wl_resource_create(client, &zwp_input_timestamps_v1_interface, wl_resource_get_version(manager), id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	struct touch_stamps *t = NULL;
	if (touch) {
		t = calloc(1, sizeof *t);
		if (t == NULL) {
			wl_resource_destroy(r);
			wl_client_post_no_memory(client);
			return;
		}
		t->resource = r;
		wl_list_insert(&subscriptions, &t->link);
	}
	wl_resource_set_implementation(r, &stamps_impl, t, stamps_resource_destroyed);
}

static void manager_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void get_keyboard(struct wl_client *client, struct wl_resource *manager, uint32_t id, struct wl_resource *keyboard) {
	subscribe(client, manager, id, false);
}

static void get_pointer(struct wl_client *client, struct wl_resource *manager, uint32_t id, struct wl_resource *pointer) {
	subscribe(client, manager, id, false);
}

static void get_touch(struct wl_client *client, struct wl_resource *manager, uint32_t id, struct wl_resource *touch) {
	subscribe(client, manager, id, true);
}

static const struct zwp_input_timestamps_manager_v1_interface manager_impl = {
	.destroy = manager_destroy,
	.get_keyboard_timestamps = get_keyboard,
	.get_pointer_timestamps = get_pointer,
	.get_touch_timestamps = get_touch,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *r = wl_resource_create(client, &zwp_input_timestamps_manager_v1_interface, (int)version, id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

void input_timestamps_setup(struct server *s) {
	wl_list_init(&subscriptions);
	wl_global_create(s->display, &zwp_input_timestamps_manager_v1_interface, 1, s, bind_manager);
}

void input_timestamps_touch(struct wl_client *client, int64_t ns) {
	if (client == NULL || ns < 0) {
		return;
	}
	uint64_t sec = (uint64_t)ns / 1000000000u;
	uint32_t nsec = (uint32_t)((uint64_t)ns % 1000000000u);
	struct touch_stamps *t;
	wl_list_for_each(t, &subscriptions, link) {
		if (wl_resource_get_client(t->resource) == client) {
			zwp_input_timestamps_v1_send_timestamp(t->resource, (uint32_t)(sec >> 32), (uint32_t)sec, nsec);
		}
	}
}
