"""The modules a page will import, found from the modules' own import lines."""

from __future__ import annotations

import pytest

from roofline_site.module_preloads import static_imports


def _write(folder, files: dict[str, str]):
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_every_level_of_static_import_in_the_order_first_met(tmp_path):
    folder = _write(
        tmp_path,
        {
            "a/main.mjs": 'import { x } from "./x.mjs";\nimport "../lib/side.mjs";\nexport { y } from "./y.mjs";\n',
            "a/x.mjs": 'import {\n  deep,\n  deeper,\n} from "../lib/deep.mjs";\nexport const x = 1;\n',
            "a/y.mjs": 'import { x } from "./x.mjs";\nimport { main } from "./main.mjs";\nexport const y = 2;\n',
            "lib/side.mjs": "console.log(1);\n",
            "lib/deep.mjs": "export const deep = 1, deeper = 2;\n",
        },
    )
    assert static_imports(folder, "a/main.mjs") == ["a/x.mjs", "lib/deep.mjs", "lib/side.mjs", "a/y.mjs"]


def test_dynamic_imports_strings_and_comments_are_not_followed(tmp_path):
    folder = _write(
        tmp_path,
        {
            "main.mjs": (
                'const later = () => import("./later.mjs");\n'
                'export const NAME = "./not-a-module.mjs";\n'
                '// see "./comment.mjs"\n'
                'const worker = new Worker(new URL("./worker.mjs", import.meta.url));\n'
            ),
        },
    )
    assert static_imports(folder, "main.mjs") == []


def test_an_import_outside_the_folder_is_refused(tmp_path):
    folder = _write(tmp_path / "assets", {"main.mjs": 'import "../../elsewhere.mjs";\n'})
    with pytest.raises(ValueError, match="outside the asset folder"):
        static_imports(folder, "main.mjs")
