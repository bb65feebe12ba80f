/*
 * The fixture spec's ABI (tests/fixtures/minimal, "Widget Cloud"), from C: every field kind the
 * shipped spec lacks (a bool, a required number, a required string, an optional enum that lists
 * all its values, an optional object), so the generated library is proven for another spec too.
 */
#include "cwidget.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                                    \
    do {                                                                                    \
        if (!(condition)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

static Widget_StringView view(const char *text) {
    Widget_StringView v;
    v.ptr = (const uint8_t *)text;
    v.size = strlen(text);
    return v;
}

static int equals(Widget_String string, const char *expected) {
    return string.size == strlen(expected) && (string.size == 0 || memcmp(string.ptr, expected, string.size) == 0);
}

static void check_required_fields(Widget_WidgetArgs *args) {
    Widget_String label = {NULL, 0};
    CHECK(Widget_WidgetArgs_Size(args) == 0 && !Widget_WidgetArgs_Visible(args));
    Widget_WidgetArgs_SetSize(args, UINT64_C(0xFFFFFFFFFFFFFFFF));
    Widget_WidgetArgs_SetVisible(args, true);
    Widget_WidgetArgs_SetLabel(args, view("label"));
    CHECK(Widget_WidgetArgs_Size(args) == UINT64_C(0xFFFFFFFFFFFFFFFF) && Widget_WidgetArgs_Visible(args));
    Widget_WidgetArgs_Label(args, &label);
    CHECK(equals(label, "label"));
    Widget_String_Free(&label);
}

static void check_closed_enum(Widget_WidgetArgs *args) {
    Widget_Color blue = Widget_Color_Blue;
    Widget_Color unknown = (Widget_Color)5; /* the enum lists all its values: 5 is not one */
    Widget_Color read = Widget_Color_Red;
    Widget_WidgetArgs_SetPaint(args, &blue);
    CHECK(Widget_WidgetArgs_Paint(args, &read) && read == Widget_Color_Blue);
    Widget_WidgetArgs_SetPaint(args, &unknown);
    CHECK(!Widget_WidgetArgs_Paint(args, &read));
}

static void check_optional_object(Widget_WidgetArgs *args) {
    Widget_Handle parent;
    Widget_Handle read = {NULL};
    Widget_Handle_Init(&parent);
    Widget_WidgetArgs_SetParent(args, &parent);
    Widget_Handle_Drop(&parent);
    CHECK(Widget_WidgetArgs_Parent(args, &read) && read.opaque != NULL);
    Widget_Handle_Drop(&read);
    Widget_WidgetArgs_SetParent(args, NULL);
    CHECK(!Widget_WidgetArgs_Parent(args, &read) && read.opaque == NULL);
}

static void check_optional_string(Widget_WidgetArgs *args) {
    Widget_StringView note = view("note");
    Widget_String read = {NULL, 0};
    Widget_WidgetArgs_SetNote(args, &note);
    CHECK(Widget_WidgetArgs_Note(args, &read) && equals(read, "note"));
    Widget_Free(read.ptr);
    Widget_WidgetArgs_SetNote(args, NULL);
    CHECK(!Widget_WidgetArgs_Note(args, &read));
}

int main(void) {
    Widget_WidgetArgs args;
    Widget_WidgetArgs copy;
    Widget_Handle handle;
    Widget_Handle handle_copy;

    CHECK(Widget_GetAbiVersion() == (((uint32_t)WIDGET_ABI_VERSION_MAJOR << 16) | (uint32_t)WIDGET_ABI_VERSION_MINOR));
    Widget_WidgetArgs_Init(&args);
    check_required_fields(&args);
    check_closed_enum(&args);
    check_optional_object(&args);
    check_optional_string(&args);
    Widget_WidgetArgs_Clone(&copy, &args);
    Widget_WidgetArgs_Drop(&args);
    Widget_WidgetArgs_Drop(&args);
    CHECK(Widget_WidgetArgs_Size(&args) == 0 && Widget_WidgetArgs_Visible(&copy));
    Widget_WidgetArgs_Drop(&copy);

    Widget_Handle_Init(&handle);
    Widget_Handle_Clone(&handle_copy, &handle);
    Widget_Handle_Drop(&handle);
    Widget_Handle_Drop(&handle_copy);
    if (failures != 0) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    return 0;
}
