// Syntax chunking of C, C++, C#, Ruby, PHP and Kotlin: a small sample per language with known declarations →
// expected chunks (kind, qualified symbol, lines) and imports, read through real grammars.
import { describeSamples, type Sample } from '../../../test/code/chunk-samples.js';

const SAMPLES: Sample[] = [
  {
    language: 'c',
    path: 's.c',
    source: String.raw`#include <stdio.h>
#include "local.h"

struct point { int x; };
typedef struct { int y; } other;

/* adds */
static int add(int a, int b) {
    return a + b;
}

int *ptr(void) { return 0; }

int main(void) {
    printf("%d\n", add(1, 2));
    return 0;
}
`,
    chunks: [
      'window - 1-2',
      'struct point 4-4',
      'struct other 5-5',
      'function add 7-10',
      'function ptr 12-12',
      'function main 14-17',
    ],
    imports: ['stdio.h', 'local.h'],
  },
  {
    language: 'cpp',
    path: 's.cpp',
    source: String.raw`#include <vector>
#include "x.hpp"

namespace geo {
class Shape {
public:
    virtual double area() const = 0;
    void print();
};

struct Point { int x; };

double free_fn(int a) { return a; }
}

void geo::Shape::print() { }

template <typename T>
T maxOf(T a, T b) { return a > b ? a : b; }
`,
    chunks: [
      'window - 1-2',
      'module geo 4-14',
      'class geo.Shape 5-9',
      'struct geo.Point 11-11',
      'function geo.free_fn 13-13',
      'function geo.Shape.print 16-16',
      'function maxOf 18-19',
    ],
    imports: ['vector', 'x.hpp'],
  },
  {
    language: 'csharp',
    path: 's.cs',
    source: String.raw`using System;
using System.Collections.Generic;

namespace App
{
    public interface IShape { double Area(); }

    /// <summary>Doc</summary>
    public class Circle : IShape
    {
        public Circle(double r) { R = r; }
        public double R { get; }
        public double Area() { return Math.PI * R * R; }
    }

    struct P { int x; }
    enum Color { Red }
}
`,
    chunks: [
      'window - 1-2',
      'module App 4-18',
      'interface App.IShape 6-6',
      'class App.Circle 8-14',
      'method App.Circle.Circle 11-11',
      'method App.Circle.Area 13-13',
      'struct App.P 16-16',
      'enum App.Color 17-17',
    ],
    imports: ['System', 'System.Collections.Generic'],
  },
  {
    language: 'ruby',
    path: 's.rb',
    source: String.raw`require 'json'
require_relative 'lib/helper'

module Geo
  # A shape.
  class Shape < Base
    def area
      compute(1)
    end

    def self.build
      new
    end
  end
end

def top_level(x)
  x
end
`,
    chunks: [
      'window - 1-2',
      'module Geo 4-15',
      'class Geo.Shape 5-14',
      'method Geo.Shape.area 7-9',
      'method Geo.Shape.build 11-13',
      'function top_level 17-19',
    ],
    imports: ['json', 'lib/helper'],
  },
  {
    language: 'php',
    path: 's.php',
    source: String.raw`<?php
namespace App;

use Foo\Bar;
use Baz\{Qux, Quux};
require_once 'lib.php';
include 'other.php';

interface Shape { public function area(): float; }

trait T { public function t() {} }

class Circle implements Shape {
    public function __construct(private float $r) {}
    public function area(): float { return pi() * $this->r; }
}

function helper($x) { return $x; }
`,
    chunks: [
      'window - 1-7',
      'interface Shape 9-9',
      'trait T 11-11',
      'method T.t 11-11',
      'class Circle 13-16',
      'method Circle.__construct 14-14',
      'method Circle.area 15-15',
      'function helper 18-18',
    ],
    imports: ['Foo\\Bar', 'Baz\\Qux', 'Baz\\Quux', 'lib.php', 'other.php'],
  },
  {
    language: 'kotlin',
    path: 's.kt',
    source: String.raw`package geo

import kotlin.math.PI
import java.util.*

interface Shape {
    fun area(): Double
}

/** Circle. */
data class Circle(val r: Double) : Shape {
    override fun area(): Double = PI * r * r
}

object Registry {
    fun register(s: Shape) {}
}

fun top(x: Int): Int {
    return x + 1
}
`,
    chunks: [
      'window - 1-4',
      'interface Shape 6-8',
      'class Circle 10-13',
      'method Circle.area 12-12',
      'class Registry 15-17',
      'method Registry.register 16-16',
      'function top 19-21',
    ],
    imports: ['kotlin.math.PI', 'java.util.*'],
  },
];

describeSamples(SAMPLES);
