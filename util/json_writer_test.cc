#include "hlolayout/util/json_writer.h"

#include <limits>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(Json, CompactDocument) {
  JsonWriter json;
  json.BeginObject();
  json.Key("shape").String("f32[3,5]{1,0}");
  json.Key("dimensions").BeginArray().Int(3).Int(5).EndArray();
  json.Key("ok").Bool(true);
  json.Key("none").Null();
  json.Key("empty").BeginArray().EndArray();
  json.Key("obj").BeginObject().EndObject();
  json.EndObject();
  EXPECT_EQ(json.str(),
            "{\"shape\": \"f32[3,5]{1,0}\", \"dimensions\": [3, 5], \"ok\": "
            "true, \"none\": null, \"empty\": [], \"obj\": {}}");
}

TEST(Json, IntArray) {
  JsonWriter json;
  json.BeginObject().Key("dims").IntArray({3, 5}).Key("none").IntArray({});
  json.EndObject();
  EXPECT_EQ(json.str(), "{\"dims\": [3, 5], \"none\": []}");
}

TEST(Json, PrettyDocument) {
  JsonWriter json(true);
  json.BeginObject().Key("a").BeginArray().Int(1).Int(2).EndArray().EndObject();
  EXPECT_EQ(json.str(), "{\n  \"a\": [\n    1,\n    2\n  ]\n}");
}

TEST(Json, Escapes) {
  JsonWriter json;
  json.String("a\"b\\c\nd\te\x01");
  EXPECT_EQ(json.str(), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
}

TEST(Json, Doubles) {
  JsonWriter json;
  json.BeginArray()
      .Double(1.5)
      .Double(0.1)
      .Double(2.0)
      .Double(std::numeric_limits<double>::infinity())
      .EndArray();
  EXPECT_EQ(json.str(), "[1.5, 0.1, 2, null]");
}

TEST(JsonDeathTest, ValueWithoutKeyInObject) {
  JsonWriter json;
  json.BeginObject();
  EXPECT_DEATH(json.Int(1), "value without a key");
}

}  // namespace
}  // namespace hlolayout
