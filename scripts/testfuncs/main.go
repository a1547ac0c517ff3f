// Command testfuncs compares the test files of one package in two trees (two checkouts of
// the repository, say before and after a move of tests between files): every top-level
// function and declaration of the *_test.go files, by package and name, printed without comments. It lists
// the ones added, removed or changed, and counts the unchanged ones. A reorganisation
// that changes no function cannot change which mutants the tests kill.
//
//	go run ./scripts/testfuncs OLD/PKGDIR NEW/PKGDIR
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func funcs(dir string) map[string]string {
	m := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		fs := token.NewFileSet()
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testfuncs:", err)
			os.Exit(1)
		}
		pkg := af.Name.Name
		for _, d := range af.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok != token.IMPORT {
				var b bytes.Buffer
				printer.Fprint(&b, fs, gd)
				m[pkg+"."+gd.Tok.String()+" "+specName(gd.Specs[0])] = b.String()
				continue
			}
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			var b bytes.Buffer
			printer.Fprint(&b, fs, fd)
			name := pkg + "." + fd.Name.Name
			if fd.Recv != nil {
				var r bytes.Buffer
				printer.Fprint(&r, fs, fd.Recv.List[0].Type)
				name = pkg + "." + r.String() + "." + fd.Name.Name
			}
			m[name] = b.String()
		}
	}
	return m
}

// specName is the first name a var, const or type declaration declares.
func specName(s ast.Spec) string {
	switch s := s.(type) {
	case *ast.ValueSpec:
		return s.Names[0].Name
	case *ast.TypeSpec:
		return s.Name.Name
	}
	return "?"
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/testfuncs OLD/PKGDIR NEW/PKGDIR")
		os.Exit(2)
	}
	for _, d := range os.Args[1:] {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			fmt.Fprintf(os.Stderr, "testfuncs: %s is not a directory\n", d)
			os.Exit(2)
		}
	}
	a, b := funcs(os.Args[1]), funcs(os.Args[2])
	var names []string
	for k := range a {
		names = append(names, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	same := 0
	for _, n := range names {
		x, okx := a[n]
		y, oky := b[n]
		switch {
		case !okx:
			fmt.Println("ADDED  ", n)
		case !oky:
			fmt.Println("REMOVED", n)
		case x != y:
			fmt.Println("CHANGED", n, strings.Count(x, "\n"), strings.Count(y, "\n"))
		default:
			same++
		}
	}
	fmt.Println("same:", same)
}
