/*
** schema_cmd.h
** `cairn schema NAME`: one of cairn's schemas (or any schema file) printed
** as JSON, for editors and tools that take JSON Schema in JSON only.
*/
#ifndef CAIRN_SCHEMA_CMD_H
#define CAIRN_SCHEMA_CMD_H

#define SCHEMA_CMD_USAGE "cairn schema NAME|FILE"
#define SCHEMA_CMD_SUMMARY "print one of cairn's schemas (or a schema file) as JSON"
#define SCHEMA_CMD_HELP                                                                     \
    "Prints a schema as JSON, for editors that want JSON Schema in JSON. NAME is one of\n"   \
    "cairn's schemas: ruleset (the manifest), components (shared definitions), save;\n"      \
    "FILE is any schema file (rulesets/yak/schemas/foods.schema.yaml). `$ref`s are\n"        \
    "printed as written. Without NAME it lists cairn's schemas. docs/editors.md.\n"          \
    "Exit status: 0 printed, 1 no such schema or a YAML error, 2 usage.\n"

int schema_cmd_main(int argc, char **argv);

#endif
