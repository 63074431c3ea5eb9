"""selects.config_setting_group: all that Abseil's BUILD files use of Skylib.

Bazel Skylib stands in here for the consumer test (.ci/consumers.sh), which
cannot fetch it offline; a real project has Skylib already (Abseil needs
it) and drops this folder. Written for this test, not copied from Skylib.
"""

def _never(name):
    # A setting that holds in no build (nobody defines this value).
    native.config_setting(
        name = name,
        values = {"define": "hlolayout_consumer_never=" + name},
        visibility = ["//visibility:private"],
    )

def _config_setting_group(name, match_any = [], match_all = [], visibility = None):
    if bool(match_any) == bool(match_all):
        fail("config_setting_group %s: give match_any or match_all" % name)
    never = name + "__never"
    _never(never)
    settings = match_any or match_all
    # A chain of aliases, one setting a link: for match_any, the first that
    # holds ends the chain; for match_all, each must hold to go on.
    for i, setting in enumerate(settings):
        link = name if i == 0 else "%s__%d" % (name, i)
        last = i == len(settings) - 1
        if match_any:
            rest = ":" + never if last else ":%s__%d" % (name, i + 1)
            actual = select({setting: setting, "//conditions:default": rest})
        else:
            rest = setting if last else ":%s__%d" % (name, i + 1)
            actual = select({setting: rest, "//conditions:default": ":" + never})
        native.alias(
            name = link,
            actual = actual,
            visibility = visibility if i == 0 else ["//visibility:private"],
        )

selects = struct(config_setting_group = _config_setting_group)
