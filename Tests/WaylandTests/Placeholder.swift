// Tests for this module live here.
