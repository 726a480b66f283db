// Syntax chunking of TypeScript, TSX, JavaScript, Python, Go, Rust and Java: a small sample per language with known declarations →
// expected chunks (kind, qualified symbol, lines) and imports, read through real grammars.
import { describeSamples, type Sample } from '../../../test/code/chunk-samples.js';

const SAMPLES: Sample[] = [
  {
    language: 'typescript',
    path: 's.ts',
    source: String.raw`import { readFile } from 'node:fs/promises';
import type { X } from './x.js';
export { y } from './y.js';
const fs = require('fs');

/** Adds. */
export function add(a: number, b: number): number {
  return helper(a) + b;
}

export interface Shape {
  area(): number;
}

@sealed
export class Circle implements Shape {
  constructor(private r: number) {}
  area(): number {
    return Math.PI * this.r ** 2;
  }
}

export const arrow = (x: string): string => x.trim();
type Alias = { a: number };
enum Color { Red, Green }
namespace NS { export function inner() {} }
`,
    chunks: [
      'window - 1-4',
      'function add 6-9',
      'interface Shape 11-13',
      'class Circle 15-21',
      'method Circle.constructor 17-17',
      'method Circle.area 18-20',
      'function arrow 23-23',
      'type Alias 24-24',
      'enum Color 25-25',
      'module NS 26-26',
      'function NS.inner 26-26',
    ],
    imports: ['node:fs/promises', './x.js', './y.js', 'fs'],
  },
  {
    language: 'tsx',
    path: 's.tsx',
    source: String.raw`import React from 'react';
export function App({ name }: { name: string }) {
  return <div>{name}</div>;
}
class Widget extends React.Component {
  render() { return <span />; }
}
`,
    chunks: ['function App 2-4', 'class Widget 5-7', 'method Widget.render 6-6'],
    imports: ['react'],
  },
  {
    language: 'javascript',
    path: 's.js',
    source: String.raw`import a from 'a';
const b = require('b');
export * from './c.js';
function top(x) { return x; }
class K {
  m() { return top(1); }
  static s() {}
}
const f = function () {};
const g = async (y) => y;
exports.h = function h() {};
`,
    chunks: [
      'window - 1-3',
      'function top 4-4',
      'class K 5-8',
      'method K.m 6-6',
      'method K.s 7-7',
      'function f 9-9',
      'function g 10-10',
      'window - 11-11',
    ],
    imports: ['a', 'b', './c.js'],
  },
  {
    language: 'python',
    path: 's.py',
    source: String.raw`import os, sys
from collections import OrderedDict
from . import sibling

@decorator
def top(a, b=1):
    """Doc."""
    return os.path.join(a, b)

class Base:
    def method(self):
        return self.other()

    async def amethod(self):
        pass

class Child(Base):
    class Inner:
        def deep(self): pass
`,
    chunks: [
      'window - 1-3',
      'function top 5-8',
      'class Base 10-15',
      'method Base.method 11-12',
      'method Base.amethod 14-15',
      'class Child 17-19',
      'class Child.Inner 18-19',
      'method Child.Inner.deep 19-19',
    ],
    imports: ['os', 'sys', 'collections', '.sibling'],
  },
  {
    language: 'go',
    path: 's.go',
    source: String.raw`package main

import (
	"fmt"
	str "strings"
)
import "os"

// Point is a point.
type Point struct {
	X, Y int
}

type Shape interface {
	Area() float64
}

func (p *Point) Move(dx int) {
	p.X += dx
}

func main() {
	fmt.Println(str.ToUpper("x"))
}
`,
    chunks: [
      'window - 1-7',
      'struct Point 9-12',
      'interface Shape 14-16',
      'method Point.Move 18-20',
      'function main 22-24',
    ],
    imports: ['fmt', 'strings', 'os'],
  },
  {
    language: 'rust',
    path: 's.rs',
    source: String.raw`use std::collections::HashMap;
use crate::a::{b, c};

/// A point.
#[derive(Debug)]
pub struct Point { x: i32 }

pub enum E { A, B }

pub trait Shape {
    fn area(&self) -> f64;
}

impl Shape for Point {
    fn area(&self) -> f64 { 0.0 }
}

impl Point {
    pub fn new() -> Self { Point { x: 0 } }
}

mod inner {
    fn f() {}
}

fn main() {
    let p = Point::new();
    println!("{}", p.area());
}
`,
    chunks: [
      'window - 1-2',
      'struct Point 4-6',
      'enum E 8-8',
      'trait Shape 10-12',
      'impl Point 14-16',
      'method Point.area 15-15',
      'impl Point 18-20',
      'method Point.new 19-19',
      'module inner 22-24',
      'function inner.f 23-23',
      'function main 26-29',
    ],
    imports: ['std::collections::HashMap', 'crate::a::{b, c}'],
  },
  {
    language: 'java',
    path: 'S.java',
    source: String.raw`package p;

import java.util.List;
import static java.lang.Math.max;

/** Doc. */
public class Shape {
    private int x;
    public Shape(int x) { this.x = x; }
    @Override
    public String toString() { return "s"; }
    interface Inner { void go(); }
}

enum Color { RED; void f() {} }
record R(int a) {}
`,
    chunks: [
      'window - 1-4',
      'class Shape 6-13',
      'method Shape.Shape 9-9',
      'method Shape.toString 10-11',
      'interface Shape.Inner 12-12',
      'enum Color 15-15',
      'method Color.f 15-15',
      'class R 16-16',
    ],
    imports: ['java.util.List', 'java.lang.Math.max'],
  },
];

describeSamples(SAMPLES);
